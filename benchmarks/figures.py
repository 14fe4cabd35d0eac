"""The runs beside the notebooks' own whose figures the notebooks' prose and the docs quote.

``make demo`` records each notebook's own run (``reports/headlines-demo.json``, kept as
``benchmarks/records/headlines-demo.json``). Some prose sets that run beside the same
study on other data or settings; this script makes those runs, with the study's default
settings and one change each, and writes every figure they print, prefixed by the run's
name, into ``benchmarks/records/figures-beside.json`` (the record format of ``privlab
demo``). ``privlab quote`` reads both records and writes the figures between the
``<!--q:...-->`` markers.

  08_spia   panorama151   spia_panorama_151.jsonl: PANORAMA's evaluation documents
            tab144        spia_tab_144.jsonl: evaluation documents of a genre (court
                          cases) the offline adversary's rules never saw
            dev380        spia_panorama_531.jsonl, split="development": the documents the
                          rules were developed on (PANORAMA-531 minus the 151)
  03_avengers proxy9      the offline comments with the nine-comment proxy set
            paper49       the paper's 49 comments (../shared/data/paper/text/avengers_large)
  09_calibration ownsets  privlab's own sentence sets (the notebook takes the paper's
                          files when they are present), text only
  10_finetuning mix0.25, mix0.5, mix1   the same training with each other blend audited
                          on the held-out scenes (the notebook audits the one its rule picks)

About five minutes on two cores; needs ``../shared/data`` beside the clone. Asserts
nothing: the tests hold what each study must show.

    nice -n 10 python benchmarks/figures.py [--only 08_spia] [--out FILE]
    python -m privlab quote benchmarks/records/headlines-demo.json benchmarks/records/figures-beside.json
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, Callable

from privlab.cli.quote import write_record
from privlab.config import shared_data_dir

ROOT = Path(__file__).resolve().parents[1]


def _runs(shared: Path) -> dict[str, list[tuple[str, Callable[[], Any]]]]:
    from privlab.studies import avengers, calibration, finetune, spia

    def spia_run(name: str, split: str | None = None):
        return lambda: spia.run(spia.Config.default(data=str(shared / "spia" / name),
                                                    split=split))

    return {
        "08_spia": [("panorama151", spia_run("spia_panorama_151.jsonl")),
                    ("tab144", spia_run("spia_tab_144.jsonl")),
                    ("dev380", spia_run("spia_panorama_531.jsonl", "development"))],
        "03_avengers": [
            ("proxy9", lambda: avengers.run(avengers.Config.default(proxy="9"))),
            ("paper49", lambda: avengers.run(avengers.Config.default(
                data=str(shared / "paper" / "text" / "avengers_large"))))],
        "09_calibration": [("ownsets", lambda: calibration.run(calibration.Config.default(
            data="default", images=False)))],
        "10_finetuning": [(f"mix{m:g}", (lambda m=m: finetune.run(finetune.Config.default(mix=m))))
                          for m in (0.25, 0.5, 1.0)],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path,
                        default=ROOT / "benchmarks" / "records" / "figures-beside.json")
    parser.add_argument("--only", action="append", default=None,
                        help="a notebook's runs only (repeatable), e.g. 08_spia")
    args = parser.parse_args(argv)
    shared = shared_data_dir()
    if shared is None:
        parser.error("needs ../shared/data beside the clone (the SPIA files, the paper's "
                     "comments); it is absent")
    table = _runs(shared)
    unknown = sorted(set(args.only or ()) - set(table))
    if unknown:
        parser.error(f"--only {unknown[0]}: one of {sorted(table)}")
    records = []
    for notebook, runs in table.items():
        if args.only and notebook not in args.only:
            continue
        start = time.perf_counter()
        figures: dict[str, str] = {}
        texts, status = [], ""
        for prefix, run in runs:
            result = run()
            headline = result.headline()
            print(f"{notebook} {prefix}: {headline.text}", flush=True)
            texts.append(f"{prefix}: {headline.text}")
            status = headline.status
            figures.update({f"{prefix}.{k}": v for k, v in result.quoted_figures().items()})
        records.append({"notebook": notebook, "seconds": round(time.perf_counter() - start, 1),
                        "ok": True, "headlines": [{
                            "study": f"{notebook} (runs beside the notebook's)",
                            "text": " | ".join(texts), "status": status,
                            "caveats": ["benchmarks/figures.py: the study's default settings "
                                        "with one change per run"], "figures": figures}]})
    if args.only and args.out.is_file():  # keep the other notebooks' runs of an earlier record
        from privlab.cli.quote import read_record

        done = {r["notebook"] for r in records}
        records = [r for r in read_record(args.out)["notebooks"] if r["notebook"] not in done] \
            + records
    write_record(args.out, "full", records)
    print(f"{sum(len(r['headlines'][0]['figures']) for r in records)} figures written to "
          f"{args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
