"""Model-based span redaction for users who have the models: GLiNER and OpenAI's
privacy filter (through transformers).

Both find character spans and hand them to :func:`redact_spans`, which merges
overlapping spans and replaces them by boxes (or ``<LABEL>`` tags). Loading is real and
offline-friendly: a local folder or a cached hub id works with ``HF_HUB_OFFLINE=1``;
when the package or the model is absent the error says what to install or download.

- :class:`GLiNERSanitizer`: open-vocabulary entities (the paper's GLN2 with labels such
  as "film franchise", "fictional character"); needs GLiNER (:func:`privlab.fixes.install_command`).
- :class:`TokenClassifierSanitizer`: any transformers token-classification model, by
  default ``openai/privacy-filter``, every span of every category kept (its most
  inclusive setting).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from privlab.errors import MissingDependencyError, invalid, require
from privlab.fixes import download_command, install_arguments
from privlab.progress import note
from privlab.sanitizers.base import Sanitizer, registry
from privlab.sanitizers.text import BOX

PRIVACY_FILTER = "openai/privacy-filter"


def redact_spans(text: str, spans: Iterable[tuple[int, int, str]], *, tags: bool = False) -> str:
    """Replace character spans ``(start, end, label)``; overlapping spans are merged.

    Args:
        text: the original text.
        spans: half-open character ranges with a label.
        tags: write ``<LABEL>`` (the first label of a merged span) instead of boxes.

    Returns:
        The redacted text (boxes keep whitespace so line structure survives).

    Raises:
        ValueError: a span outside the text.

    Example:
        >>> redact_spans("Ken Lay met Jeff", [(0, 3, "PER"), (2, 7, "PER"), (12, 16, "PER")])
        '███ ███ met ████'
        >>> redact_spans("Ken Lay met Jeff", [(0, 7, "PER")], tags=True)
        '<PER> met Jeff'
    """
    cleaned = []
    for start, end, label in spans:
        if not (0 <= int(start) <= int(end) <= len(text)):
            raise invalid("spans", "redact_spans", f"ranges within [0, {len(text)}]",
                          (start, end, label))
        if end > start:
            cleaned.append((int(start), int(end), str(label)))
    merged: list[list] = []
    for start, end, label in sorted(cleaned):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, label])
    out, cursor = [], 0
    for start, end, label in merged:
        out.append(text[cursor:start])
        out.append(f"<{label}>" if tags else re.sub(r"\S", BOX, text[start:end]))
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


class GLiNERSanitizer(Sanitizer):
    """GLiNER open-vocabulary entity redaction.

    Args:
        labels: entity labels in words, e.g. ``["film franchise", "fictional character"]``.
        model: a GLiNER hub id or local folder.
        threshold: keep entities scoring at least this.
        tags: ``<label>`` tags instead of boxes.
        model_object: an already-loaded model with ``predict_entities(text, labels,
            threshold=...)`` (tests and custom loaders).

    Raises:
        MissingDependencyError: ``gliner`` is not installed (on first use).
        ValueError: the model cannot be loaded offline (the message says how to get it).
    """

    modality = "text"

    def __init__(self, labels: Sequence[str], *, model: str = "urchade/gliner_multi-v2.1",
                 threshold: float = 0.5, tags: bool = False, model_object: Any = None):
        if isinstance(labels, str) or not labels:
            raise invalid("labels", "GLiNERSanitizer", "a non-empty list of labels", labels)
        self.labels = list(labels)
        self.model_ref = model
        self.threshold = float(threshold)
        self.tags = tags
        self._model = model_object
        self.name = "gliner"

    def load(self):
        """Load the model once (local folder or cached hub id)."""
        if self._model is None:
            gliner = require("gliner", install_arguments("gliner"), "GLiNER redaction")
            note(f"loading GLiNER {self.model_ref} …")
            try:
                self._model = gliner.GLiNER.from_pretrained(self.model_ref)
            except (OSError, ValueError) as exc:
                raise invalid("model", "GLiNERSanitizer", "a GLiNER folder or a cached hub id",
                              self.model_ref, "Offline, download it where there is internet "
                              f"({download_command(self.model_ref)}) and pass its folder."
                              ) from exc
        return self._model

    def _sanitize_one(self, text: str) -> str:
        found = self.load().predict_entities(text, self.labels, threshold=self.threshold)
        return redact_spans(text, [(e["start"], e["end"], e["label"]) for e in found],
                            tags=self.tags)

    def describe(self) -> dict:
        return {**super().describe(), "labels": self.labels, "model": self.model_ref,
                "threshold": self.threshold}


@registry.member("gliner", modality="text", offline=False, requires="gliner",
                 install=install_arguments("gliner"),
                 description="GLiNER open-vocabulary entities")
def gliner(concepts=(), labels=None, **kw) -> GLiNERSanitizer:
    """GLiNER with ``labels``, else the labels of the paper's franchise study.

    Example:
        >>> gliner().labels
        ['person', 'organization', 'film franchise', 'fictional character']
    """
    return GLiNERSanitizer(labels or ["person", "organization", "film franchise",
                                      "fictional character"], **kw)


class TokenClassifierSanitizer(Sanitizer):
    """A transformers token-classification model (OpenAI's privacy filter by default).

    Args:
        model: hub id or local folder of a token-classification model.
        min_score: keep spans scoring at least this (0: every span, most inclusive).
        tags: ``<LABEL>`` tags instead of boxes.
        pipeline: an already-built callable ``pipeline(text) -> [{"start", "end",
            "entity_group" or "entity", "score"}]`` (tests and custom loaders).

    Raises:
        MissingDependencyError: transformers is missing (on first use).
        ValueError: the model cannot be loaded offline (the message says how to get it).
    """

    modality = "text"

    def __init__(self, model: str = PRIVACY_FILTER, *, min_score: float = 0.0,
                 tags: bool = False, pipeline: Any = None):
        if not 0.0 <= float(min_score) <= 1.0:
            raise invalid("min_score", "TokenClassifierSanitizer", "in [0, 1]", min_score)
        self.model_ref = model
        self.min_score = float(min_score)
        self.tags = tags
        self._pipeline = pipeline
        self.name = "privacy-filter" if model == PRIVACY_FILTER else f"token-classifier[{model}]"

    def load(self):
        """Build the transformers pipeline once (aggregation ``simple``)."""
        if self._pipeline is None:
            transformers = require("transformers", "transformers", "Token-classification redaction")
            try:
                self._pipeline = transformers.pipeline(
                    "token-classification", model=self.model_ref, aggregation_strategy="simple")
            except (OSError, ValueError, KeyError) as exc:
                raise invalid("model", "TokenClassifierSanitizer",
                              "a local token-classification folder or a cached hub id",
                              self.model_ref, "Offline, download it where there is internet "
                              f"({download_command(self.model_ref)}) and pass its folder; "
                              "newer architectures may need a newer transformers.") from exc
        return self._pipeline

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """The model's spans kept at ``min_score``."""
        found = self.load()(text)
        out = []
        for e in found:
            if float(e.get("score", 1.0)) >= self.min_score:
                label = str(e.get("entity_group") or e.get("entity") or "PII")
                out.append((int(e["start"]), int(e["end"]), re.sub(r"^[BIES]-", "", label)))
        return out

    def _sanitize_one(self, text: str) -> str:
        return redact_spans(text, self.spans(text), tags=self.tags)

    def describe(self) -> dict:
        return {**super().describe(), "model": self.model_ref, "min_score": self.min_score}


@registry.member("privacy-filter", modality="text", offline=False,
                 description="OpenAI privacy filter through transformers (needs the model)")
def privacy_filter(concepts=None, **kw) -> TokenClassifierSanitizer:
    """OpenAI's privacy filter, whatever the concepts (see :class:`TokenClassifierSanitizer`).

    Example:
        >>> privacy_filter().name  # nothing is loaded yet
        'privacy-filter'
    """
    return TokenClassifierSanitizer(**kw)


__all__ = ["GLiNERSanitizer", "MissingDependencyError", "PRIVACY_FILTER",
           "TokenClassifierSanitizer", "gliner", "privacy_filter", "redact_spans"]
