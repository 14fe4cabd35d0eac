"""``privlab.audit`` with a plain function against ``privlab.contrastive.audit`` with a
Sanitizer object: the verb adds no work beyond the engine's (issue 40).

Run with ``python benchmarks/byo_audit.py [--n 1000] [--repeats 3] [--encoder minilm]``.
Both sides audit the same ``n`` short texts (the quickstart corpus, numbered) under the
same encoder, with the placebo control, and produce the same sanitized texts: the function
is the regular expression :class:`privlab.sanitizers.ConceptListSanitizer` applies. Every
run numbers its texts differently (same lengths) and the sanitizer's output memory is
cleared, so each run sanitizes and encodes everything (no vector comes from the cache). Prints the median seconds of each side and the
ratio verb / engine (1.0 means no overhead). Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--encoder", default="minilm")
    args = parser.parse_args()
    os.environ["PRIVLAB_CACHE"] = tempfile.mkdtemp(prefix="privlab-byo-")  # a fresh cache

    import privlab
    from privlab.contrastive import audit
    from privlab.contrastive.sanitized import clear
    from privlab.datasets.quickstart import TEXTS, WEAK_CONCEPTS
    from privlab.encoders import get_encoder
    from privlab.sanitizers import ConceptListSanitizer

    def corpus(tag: str) -> list[str]:
        return [f"{TEXTS[i % len(TEXTS)]} (note {i}, {tag})" for i in range(args.n)]

    sanitizer = ConceptListSanitizer(list(WEAK_CONCEPTS))

    def redact(text: str) -> str:  # the same rule as the Sanitizer object, as a function
        return sanitizer._sanitize_one(text)

    encoder = get_encoder(args.encoder)
    encoder.encode(corpus("warm-up")[:2], cache=False)  # load the model outside the timings

    def engine(run: int) -> float:
        texts = corpus(f"e{run}")
        clear()
        start = time.perf_counter()
        a = audit(texts, sanitizer, encoders=[encoder], placebo=True)
        assert a.members[0].value >= 0
        return time.perf_counter() - start

    def verb(run: int) -> float:
        texts = corpus(f"v{run}")
        clear()
        start = time.perf_counter()
        a = privlab.audit(texts, redact, encoders={args.encoder: encoder})
        assert a.members[0].value >= 0
        return time.perf_counter() - start

    engine_times, verb_times = [], []
    for run in range(args.repeats):  # interleaved, each side first in turn, so drift and
        if run % 2:                      # order hit both sides alike
            verb_times.append(verb(run))
            engine_times.append(engine(run))
        else:
            engine_times.append(engine(run))
            verb_times.append(verb(run))
    e, v = statistics.median(engine_times), statistics.median(verb_times)
    print(f"{args.n} texts, encoder {args.encoder}, {args.repeats} runs each (median):")
    print(f"  privlab.contrastive.audit with a Sanitizer object: {e:.2f} s")
    print(f"  privlab.audit with a plain function:               {v:.2f} s")
    print(f"  ratio verb / engine: {v / e:.3f}")
    print("  every run (engine, verb): " + ", ".join(
        f"({a:.1f}, {b:.1f})" for a, b in zip(engine_times, verb_times)))


if __name__ == "__main__":
    main()
