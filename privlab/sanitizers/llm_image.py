"""Image sanitizers through language models: the two-phase REDACT/CONCEPT pipeline.

An image-to-text model lists the concepts that would reveal the target, and an
image-editing model blacks them out, both behind one OpenAI-compatible client
(:class:`privlab.llm.LLMClient`).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from privlab.errors import invalid
from privlab.hashing import bytes_hash
from privlab.sanitizers.image import ImageSanitizer
from privlab.vision.images import as_rgb

CONCEPT_PROMPT = (
    "List the visual concepts in this image whose removal would hide {concept}. "
    "Answer as JSON: {{\"concepts\": [\"...\", ...]}}.")
REDACT_PROMPT = "Black out the following objects in the image: {objects}. Change nothing else."


def _concept_list(value: Any) -> list[str]:
    if not isinstance(value, dict) or not isinstance(value.get("concepts"), list) or not all(
            isinstance(c, str) for c in value["concepts"]):
        raise ValueError('expected {"concepts": [strings]}')
    return [c.strip() for c in value["concepts"] if c.strip()]


class LLMTwoPhaseSanitizer(ImageSanitizer):
    """REDACT/CONCEPT: an image-to-text model lists concepts, an image-editing model redacts them.

    Phase 1 asks ``concept_client`` (chat with the image attached) which concepts hide
    ``concept`` in each image and pools the answers into one master list (first seen
    first); phase 2 asks ``edit_client`` to black them out of every image (``/images/edits``).
    With ``concepts`` given, phase 1 is skipped (the paper's *Manual* column); with
    ``concept_client=None`` and no concepts, the editor is asked to remove ``concept``
    directly (the paper's *None* column).

    Args:
        concept: the abstract target in words, e.g. ``"the celebrities"``.
        edit_client: :class:`privlab.llm.LLMClient` of the image-editing model.
        concept_client: client of the image-to-text model (or None).
        concepts: a fixed concept list (skips phase 1).
        concept_prompt, redact_prompt: templates with ``{concept}`` and ``{objects}``.

    Raises:
        ValueError: empty ``concept``.
    """

    cacheable = False  # served models may answer differently, and may change

    def __init__(self, concept: str, edit_client: Any, concept_client: Any = None, *,
                 concepts: Sequence[str] | None = None, concept_prompt: str = CONCEPT_PROMPT,
                 redact_prompt: str = REDACT_PROMPT):
        if not isinstance(concept, str) or not concept.strip():
            raise invalid("concept", "LLMTwoPhaseSanitizer", "a non-empty string", concept)
        self.concept, self.edit_client, self.concept_client = concept, edit_client, concept_client
        self.fixed = list(concepts) if concepts is not None else None
        self.concept_prompt, self.redact_prompt = concept_prompt, redact_prompt
        phase1 = ("manual" if self.fixed is not None else
                  getattr(concept_client, "model", "none") if concept_client else "none")
        self.name = f"{getattr(edit_client, 'model', 'editor')}/{phase1}"
        self.master_list: list[str] = []

    def concepts_for(self, images: Sequence[Any]) -> list[str]:
        """Phase 1: the pooled concept list for ``images``."""
        from privlab.llm import image_part

        if self.fixed is not None:
            return list(self.fixed)
        if self.concept_client is None:
            return [self.concept]
        pooled: list[str] = []
        for img in images:
            answer = self.concept_client.chat_json(
                [{"role": "user", "content": [
                    {"type": "text", "text": self.concept_prompt.format(concept=self.concept)},
                    image_part(img)]}], validate=_concept_list)
            for c in answer:
                if c.lower() not in {p.lower() for p in pooled}:
                    pooled.append(c)
        return pooled or [self.concept]

    def _sanitize(self, items):
        from PIL import Image

        rgbs = [as_rgb(item, "items", "LLMTwoPhaseSanitizer.sanitize") for item in items]
        self.master_list = self.concepts_for(rgbs)
        prompt = self.redact_prompt.format(objects=", ".join(self.master_list),
                                           concept=self.concept)
        out = []
        for rgb in rgbs:
            edited = self.edit_client.edit_image(rgb, prompt)
            edited = edited.convert("RGB")
            if edited.size != (rgb.shape[1], rgb.shape[0]):
                edited = edited.resize((rgb.shape[1], rgb.shape[0]), Image.BICUBIC)
            out.append(np.asarray(edited))
        return out

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "concept": self.concept, "concepts": self.master_list,
                "redact_prompt": bytes_hash(self.redact_prompt.encode(), 8)}


__all__ = ["CONCEPT_PROMPT", "LLMTwoPhaseSanitizer", "REDACT_PROMPT"]
