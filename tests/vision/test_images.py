"""Image conversion: every mode and layout becomes one (H, W, 3) uint8 RGB array."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.vision.images import as_rgb


def test_as_rgb_modes():
    from PIL import Image

    grey = np.arange(12, dtype=np.uint8).reshape(3, 4)
    assert as_rgb(grey).shape == (3, 4, 3)
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)  # fully transparent -> white
    assert (as_rgb(rgba) == 255).all()
    assert (as_rgb(Image.new("LA", (2, 2), (0, 0))) == 255).all()
    with pytest.raises(ValueError, match="dtype uint8"):
        as_rgb(np.zeros((2, 2, 3), dtype=np.float32))
    with pytest.raises(TypeError):
        as_rgb("picture.png")


def test_as_rgb_keeps_the_sample_photos_pixels():
    from PIL import Image
    from skimage import data

    photo = data.astronaut()
    assert np.array_equal(as_rgb(photo), photo)
    assert np.array_equal(as_rgb(Image.fromarray(photo)), photo)
    camera = data.camera()  # greyscale: each channel is the grey value
    assert np.array_equal(as_rgb(camera[:, :, None]), np.repeat(camera[:, :, None], 3, axis=2))
    opaque = np.dstack([photo, np.full(photo.shape[:2], 255, np.uint8)])
    assert np.array_equal(as_rgb(opaque), photo)
    out = as_rgb(photo[:, ::-1])  # a flipped view comes back contiguous
    assert out.flags["C_CONTIGUOUS"] and np.array_equal(out, photo[:, ::-1])
    with pytest.raises(ValueError, match="shaped"):
        as_rgb(np.zeros((4, 4, 2), dtype=np.uint8))


def test_jpeg_warnings_report_damage_and_ignore_stray_bytes():
    import io

    from PIL import Image
    from skimage import data

    from privlab.vision import images

    buffer = io.BytesIO()
    Image.fromarray(data.astronaut()).save(buffer, "JPEG", quality=90)
    clean = buffer.getvalue()
    assert images.jpeg_warnings(clean) == []
    zeroed = bytearray(clean)
    zeroed[len(clean) // 3:len(clean) // 3 + 2000] = bytes(2000)
    assert images.jpeg_warnings(bytes(zeroed)) == [
        "Corrupt JPEG data: premature end of data segment"]
    # Bytes between the last segment and the end marker: a warning, but no damage.
    stray = clean[:-2] + b"abc" + clean[-2:]
    assert images.jpeg_warnings(stray) == []
