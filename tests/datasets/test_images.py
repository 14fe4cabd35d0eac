"""Folder loader edge cases and the Commons downloader against a loopback server."""

from __future__ import annotations

import csv
import io
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest
from PIL import Image

from privlab.datasets.images import download_commons, load_folder


def _png_bytes(color=(10, 200, 30)):
    buf = io.BytesIO()
    Image.new("RGB", (12, 8), color).save(buf, format="PNG")
    return buf.getvalue()


def test_folder_modes_and_exif(tmp_path):
    wide = Image.new("RGB", (20, 10), (255, 0, 0))
    exif = wide.getexif()
    exif[0x0112] = 6  # rotate 90 degrees when displayed
    wide.save(tmp_path / "a_rotated.jpg", exif=exif)
    Image.new("RGBA", (5, 5), (0, 0, 0, 0)).save(tmp_path / "b_rgba.png")
    Image.new("CMYK", (6, 4), (0, 255, 255, 0)).save(tmp_path / "c_cmyk.jpg")
    Image.new("L", (7, 3), 128).save(tmp_path / "d_grey.png")
    folder = load_folder(tmp_path)
    assert folder.names == ["a_rotated.jpg", "b_rgba.png", "c_cmyk.jpg", "d_grey.png"]
    assert folder.images[0].shape == (20, 10, 3)  # upright
    assert (folder.images[1] == 255).all()  # transparent on white
    assert folder.images[2][0, 0, 0] > 200 and folder.images[2][0, 0, 1] < 60  # CMYK red
    assert folder.images[3].shape == (3, 7, 3) and (folder.images[3] == 128).all()


def test_corrupt_files_are_named_all_at_once(tmp_path):
    Image.new("RGB", (4, 4)).save(tmp_path / "good.png")
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8not really a jpeg")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ValueError) as err:
        load_folder(tmp_path)
    message = str(err.value)
    assert "broken.jpg" in message and "notes.txt" in message and "good.png" not in message
    assert "2 unreadable" in message


def test_downloader_on_loopback(tmp_path):
    served = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            url = urlparse(self.path)
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            if url.path == "/api.php" and q.get("list") == "categorymembers":
                body = json.dumps({"query": {"categorymembers": [
                    {"title": "File:Scene one.png"}, {"title": "File:Scene two.png"}]}}).encode()
            elif url.path == "/api.php":
                pages = [{"title": t, "imageinfo": [{
                    "url": f"{base}/files/{k}.png", "descriptionurl": f"{base}/wiki/{k}",
                    "extmetadata": {"Artist": {"value": "<a href='x'>Jane Doe</a>"},
                                    "LicenseShortName": {"value": "CC BY-SA 4.0"}}}]}
                         for k, t in enumerate(q["titles"].split("|"))]
                body = json.dumps({"query": {"pages": pages}}).encode()
            else:
                served.append(url.path)
                body = _png_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        api = f"http://127.0.0.1:{server.server_address[1]}/api.php"
        path = download_commons(tmp_path, category="Test scenes", api_url=api, width=None)
    finally:
        server.shutdown()
        server.server_close()
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["file"] for r in rows] == ["Scene_one.png", "Scene_two.png"]
    assert rows[0]["author"] == "Jane Doe" and rows[0]["licence"] == "CC BY-SA 4.0"
    assert rows[1]["source_url"].endswith("/wiki/1") and len(served) == 2
    folder = load_folder(tmp_path)  # the licence file is not taken for an image
    assert folder.names == ["Scene_one.png", "Scene_two.png"]
    assert np.array_equal(folder.images[0][0, 0], [10, 200, 30])
    with pytest.raises(ValueError, match="exactly one"):
        download_commons(tmp_path)
