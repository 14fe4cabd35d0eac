"""What the LLM client sends: chat messages checked before anything goes out, and images
as content parts."""

from __future__ import annotations

import base64
import io
import numbers
from typing import Any

from privlab.errors import invalid, wrong_type


def image_part(image: Any, *, max_side: int = 1024) -> dict:
    """A chat message content part carrying an image as a PNG data URL.

    Args:
        image: PIL image or ``HxWxC`` uint8 array.
        max_side: downscale so that the longer side is at most this many pixels.
    """
    from PIL import Image
    import numpy as np

    if isinstance(image, np.ndarray):
        image = Image.fromarray(image)
    image = image.convert("RGB")
    if max(image.size) > max_side:
        image = image.copy()
        image.thumbnail((max_side, max_side))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}


def check_messages(messages: Any, temperature: Any) -> None:
    """Refuse chat messages that are not a non-empty list of role/content dicts, and a
    temperature that is not a number in [0, 2], before anything is sent."""
    caller = "LLMClient.chat"
    if isinstance(messages, (str, bytes)) or not isinstance(messages, (list, tuple)):
        raise wrong_type("messages", caller, "a list of {'role': ..., 'content': ...} dicts",
                         messages, "E.g. [{'role': 'user', 'content': 'Hello'}].")
    if not messages:
        raise invalid("messages", caller, "a non-empty list of messages", messages)
    for message in messages:
        if not isinstance(message, dict) or "role" not in message or "content" not in message:
            raise invalid("messages", caller, "dicts with 'role' and 'content'", message,
                          "E.g. [{'role': 'user', 'content': 'Hello'}].")
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real) \
            or not 0 <= temperature <= 2:
        raise invalid("temperature", caller, "a number in [0, 2]", temperature)


__all__ = ["check_messages", "image_part"]
