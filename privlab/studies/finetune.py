"""Study 10 (paper §4.4.4, §5.1.1): fine-tuning the distance mechanism on coarse labels.

The question: a distance mechanism that does not know the target connects none of the
target's cues, so a sanitizer that removes the face but leaves an object the target is
always seen with can pass the test. Does training the mechanism on media of the target
with coarse captions only ("a picture of Eileen Collins") make the test see it?

The corpus is generated here, with ground truth. Each scene shows one person's portrait
(the two real faces shipped by installed packages: Eileen Collins, the target, and Grace
Hopper, the contrast identity the paper's two-subject training also has) and, in every
other scene, that person's *signature object*: a framed space-shuttle poster for the
target, a framed coffee picture for the contrast person. The remaining scenes carry a
neutral mug. Only coarse captions are used for training; the signature object is never
named.

Held out from training: new scenes of the target, audited symmetrically after a blackout
of the face (the direct cue, like the paper's head and skin), which leaves the poster in
half of them; and, as the control, after a blackout of the face and the poster.

    from privlab.studies import finetune
    result = finetune.run(finetune.Config())
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from privlab.datasets.scenes import (CANVAS, CELEBRITY_TARGET, OTHER_PERSON, Cue, Scene,
                                     SceneCorpus, shipped_faces)
from privlab.errors import invalid
from privlab.studies import StudyConfig

IDENTITY_KINDS = ("face", "signature")
SIGNATURES = {CELEBRITY_TARGET: "space shuttle poster", OTHER_PERSON: "coffee picture"}
CAPTION = "a picture of {}"
SANITIZERS = {"face (signature left)": ("face",), "face and signature": ("face", "signature")}
BASES = ("efficientnet-lite0", "sface")


# ---------------------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------------------
def _framed(picture: np.ndarray, height: int) -> np.ndarray:
    from PIL import Image

    im = Image.fromarray(picture)
    width = int(round(height * im.width / im.height))
    inner = np.asarray(im.resize((width, height), Image.BICUBIC))
    framed = np.full((height + 8, width + 8, 3), 30, dtype=np.uint8)
    framed[4:-4, 4:-4] = inner
    return framed


def _signature_picture(person: str) -> np.ndarray:
    from skimage import data

    return data.rocket() if person == CELEBRITY_TARGET else data.coffee()


def _mug(rng: np.random.Generator, height: int) -> np.ndarray:
    width = int(height * 0.8)
    mug = np.empty((height, width, 3), dtype=np.uint8)
    mug[:] = rng.integers(120, 200, 3)
    mug[int(height * 0.2):, int(width * 0.15):int(width * 0.7)] = rng.integers(40, 220, 3)
    return mug


def identity_scenes(person: str, n: int, seed: int = 0, signature_every: int = 2) -> SceneCorpus:
    """Scenes of one person, with that person's signature object in some of them.

    Each scene has a generated background, the person's portrait (scaled, mirrored,
    re-lit; cue ``face``) in one half, and in the other half the person's signature
    object (cue ``signature``) when ``index % signature_every == 0``, else a neutral mug.
    Boxes never overlap.

    Args:
        person: ``"Eileen Collins"`` (signature: a space-shuttle poster) or
            ``"Grace Hopper"`` (signature: a coffee picture).
        n: number of scenes.
        seed: random seed of positions, sizes, colours and mirroring.
        signature_every: the signature object appears in every this-many-th scene.

    Returns:
        A :class:`privlab.datasets.scenes.SceneCorpus` with kinds ``("face",
        "signature")``; ``target`` is the person.

    Raises:
        ValueError: an unknown person or a non-positive size.

    Example:
        >>> corpus = identity_scenes("Eileen Collins", 2)
        >>> [sorted(s.kinds()) for s in corpus.scenes]
        [['face', 'signature'], ['face']]
    """
    from PIL import Image, ImageEnhance

    if person not in SIGNATURES:
        raise invalid("person", "identity_scenes", f"one of {list(SIGNATURES)}", person)
    for name, value in (("n", n), ("signature_every", signature_every)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            raise invalid(name, "identity_scenes", "a positive int", value)
    face = shipped_faces()[person]
    picture = _signature_picture(person)
    width, height = CANVAS
    scenes = []
    digest = __import__("hashlib").sha256()
    for i in range(int(n)):
        rng = np.random.default_rng([seed, 7000 + i, len(person)])
        top = rng.integers(90, 230, 3)
        t = np.linspace(0.0, 1.0, height)[:, None, None]
        img = (top * (1 - t) + np.clip(top - rng.integers(20, 70, 3), 0, 255) * t) * np.ones((1, width, 1))
        img[int(height * rng.uniform(0.78, 0.86)):] = rng.integers(60, 140, 3)
        img = np.clip(img + rng.normal(0, 3.0, img.shape), 0, 255).astype(np.uint8)
        left = bool(rng.random() < 0.5)
        slot, other = ((12, 228), (252, 468)) if left else ((252, 468), (12, 228))
        ph = int(rng.integers(150, 230))
        im = Image.fromarray(face)
        im = im.resize((int(round(face.shape[1] * ph / face.shape[0])), ph), Image.BICUBIC)
        if rng.random() < 0.5:
            im = im.transpose(Image.FLIP_LEFT_RIGHT)
        portrait = np.asarray(ImageEnhance.Brightness(im).enhance(float(rng.uniform(0.85, 1.15))))
        x = int(rng.integers(slot[0], max(slot[0] + 1, slot[1] - portrait.shape[1])))
        y = int(rng.integers(40, 290 - ph + 1))
        img[y:y + ph, x:x + portrait.shape[1]] = portrait
        cues = [Cue("face", (x, y, x + portrait.shape[1], y + ph), person)]
        if i % signature_every == 0:
            patch = _framed(picture, int(rng.integers(100, 140)))
            label = SIGNATURES[person]
        else:
            patch, label = _mug(rng, int(rng.integers(60, 90))), ""
        ox = int(rng.integers(other[0], max(other[0] + 1, other[1] - patch.shape[1])))
        oy = 40 if label else 290 - patch.shape[0]
        img[oy:oy + patch.shape[0], ox:ox + patch.shape[1]] = patch
        if label:
            cues.append(Cue("signature", (ox, oy, ox + patch.shape[1], oy + patch.shape[0]), label))
        digest.update(img.tobytes())
        scenes.append(Scene(img, cues, i, "identity"))
    provenance = {"corpus": f"identity:{person}", "n": int(n), "seed": seed,
                  "signature_every": signature_every, "pixels_sha256": digest.hexdigest()[:16]}
    return SceneCorpus(f"identity:{person}", person, scenes, IDENTITY_KINDS, {}, provenance)


# ---------------------------------------------------------------------------------------
# Settings and result
# ---------------------------------------------------------------------------------------
@dataclass
class Config(StudyConfig):
    """Settings of study 10.

    Attributes:
        base_encoder: the frozen image encoder, audited as the base D and extended by the
            trained projection (``"efficientnet-lite0"`` or ``"sface"``).
        loss: ``"siglip"`` or ``"clip"``.
        epochs: training passes over the gallery.
        lr: AdamW learning rate of the projection.
        gallery_size: training scenes per identity (target and contrast person).
        heldout_size: held-out scenes of the target (audited).
        seed: seeds the scenes, the initial weights and the batch order.
        mix: weight of the trained projection in the fine-tuned D (1: projection alone).
        top_k: witnesses kept per audit.

    Example:
        >>> Config.smoke().gallery_size
        8
    """

    base_encoder: str = "efficientnet-lite0"
    loss: str = "siglip"
    epochs: int = 30
    lr: float = 1e-2
    gallery_size: int = 40
    heldout_size: int = 20
    seed: int = 0
    mix: float = 0.5
    top_k: int = 5

    @classmethod
    def smoke(cls) -> "Config":
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return cls(epochs=15, gallery_size=8, heldout_size=6)


@dataclass
class FinetuneResult:
    """Base D against fine-tuned D on the same held-out sanitized scenes.

    Attributes:
        config: the settings.
        audits: ``{sanitizer label: ContrastiveAudit}`` with two members each, the base D
            first and the fine-tuned D second.
        base: the base encoder's name.
        tuned: the fine-tuned encoder's name.
        losses: mean training loss of each epoch.
        initial_loss: the loss before training.
        learned: a DataFrame of what the fine-tuned D associates with the target: per
            group of held-out images, the mean score (cosine to the target's caption
            minus cosine to the contrast caption) and the share with a positive score.
        identity_accuracy: share of held-out originals of both people assigned to their
            own caption by the fine-tuned D.
        heldout: the held-out target corpus (its cue table says which scenes keep the
            signature).
        provenance: corpora hashes, captions and training settings.
        status: what kind of number the resolutions are.
    """

    config: Config
    audits: dict[str, Any] = field(repr=False)
    base: str
    tuned: str
    losses: list[float]
    initial_loss: float
    learned: Any = field(repr=False)
    identity_accuracy: float
    heldout: SceneCorpus = field(repr=False)
    provenance: dict[str, Any] = field(default_factory=dict)
    status: str = "diagnostic (model- and corpus-relative; the fine-tuned D is corpus-specific)"

    def resolution(self, sanitizer: str, which: str) -> float:
        """The resolution of ``sanitizer`` under ``which`` (``"base"`` or ``"fine-tuned"``)."""
        if which not in ("base", "fine-tuned"):
            raise invalid("which", "FinetuneResult.resolution", "'base' or 'fine-tuned'", which)
        if sanitizer not in self.audits:
            raise invalid("sanitizer", "FinetuneResult.resolution", f"one of {list(self.audits)}",
                          sanitizer)
        return self.audits[sanitizer].member(self.base if which == "base" else self.tuned).value

    def to_frame(self):
        """One row per (sanitizer, D): resolution, witness, whether the witness keeps the
        signature, utility, flagged items."""
        import pandas as pd

        rows = []
        for label, audit in self.audits.items():
            for which, member in zip(("base", "fine-tuned"), audit.members):
                i, j = member.witness.audited, member.witness.reference
                rows.append({
                    "sanitizer": label, "D": which, "encoder": member.encoder,
                    "resolution": member.value,
                    "max_difference": member.resolution.max_difference,
                    "witness": (i, j),
                    "witness_keeps_signature": bool(
                        member.value > 0 and "signature" in self.heldout.scenes[i].kinds()
                        and "signature" not in SANITIZERS[label]),
                    "utility": member.mean_utility,
                    "flagged": int(member.resolution.flagged().size)})
        return pd.DataFrame(rows)

    def loss_frame(self):
        """The training curve: epoch 0 is the loss before training."""
        import pandas as pd

        return pd.DataFrame({"epoch": range(len(self.losses) + 1),
                             "loss": [self.initial_loss] + list(self.losses)})

    def headline(self) -> str:
        """Base vs fine-tuned resolution on the face blackout, in one line."""
        label = next(iter(self.audits))
        return (f"{label}: base {self.base} δ*={self.resolution(label, 'base'):.4f}, "
                f"fine-tuned δ*={self.resolution(label, 'fine-tuned'):.4f}; "
                f"held-out identity accuracy {self.identity_accuracy:.2f}")

    def _repr_html_(self) -> str:
        frame = self.to_frame().drop(columns=["encoder"])
        parts = [f"<div><b>Study 10, fine-tuning D</b> ({html.escape(self.status)}): "
                 f"{html.escape(self.headline())}.",
                 frame.to_html(index=False, float_format=lambda v: f"{v:.4f}"),
                 "<p>What the fine-tuned D associates with the target (held-out images):</p>",
                 self.learned.to_html(index=False, float_format=lambda v: f"{v:.3f}"),
                 "</div>"]
        return "".join(parts)


# ---------------------------------------------------------------------------------------
# The study
# ---------------------------------------------------------------------------------------
def _check_config(config: Config) -> None:
    caller = "finetune.run"
    if not isinstance(config, Config):
        raise invalid("config", caller, "a privlab.studies.finetune.Config", config)
    if config.base_encoder not in BASES:
        raise invalid("base_encoder", caller, f"one of {list(BASES)}", config.base_encoder)
    for name in ("gallery_size", "heldout_size"):
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 2:
            raise invalid(name, caller, "an int of at least 2", value)


def run(config: Config | None = None) -> FinetuneResult:
    """Train the adapter on coarse captions, then audit held-out scenes under base and tuned D.

    Args:
        config: settings (default :meth:`Config.default`).

    Returns:
        A :class:`FinetuneResult`.

    Raises:
        ValueError: an unknown base encoder, loss or a bad size.
    """
    import pandas as pd

    from privlab.contrastive import audit, corpus_hash
    from privlab.encoders import get_encoder
    from privlab.finetune import train_adapter
    from privlab.sanitizers.image import cue_blackout

    config = config or Config.default()
    _check_config(config)
    people = (CELEBRITY_TARGET, OTHER_PERSON)
    train = [identity_scenes(p, config.gallery_size, seed=config.seed) for p in people]
    images = [img for corpus in train for img in corpus.images]
    captions = [CAPTION.format(p) for p, corpus in zip(people, train) for _ in corpus.scenes]
    fitted = train_adapter(images, captions, base=config.base_encoder, loss=config.loss,
                           epochs=config.epochs, lr=config.lr, seed=config.seed, mix=config.mix)
    tuned = fitted.encoder
    base = get_encoder(config.base_encoder)

    heldout_seed = config.seed + 1000
    heldout = identity_scenes(CELEBRITY_TARGET, config.heldout_size, seed=heldout_seed)
    contrast = identity_scenes(OTHER_PERSON, config.heldout_size, seed=heldout_seed)
    audits = {}
    for label, kinds in SANITIZERS.items():
        audits[label] = audit(heldout.images, cue_blackout(heldout, kinds, name=label),
                              encoders=[base, tuned], top_k=config.top_k)

    # What the adapted D learned: target score = cos(target caption) - cos(contrast caption).
    originals = fitted.caption_scores(heldout.images + contrast.images)
    k = len(heldout)
    truth = np.r_[np.zeros(k, int), np.ones(k, int)]
    accuracy = float(np.mean(np.argmax(originals, axis=1) == truth))
    has_sig = np.array(["signature" in s.kinds() for s in heldout.scenes])
    face_only = fitted.caption_scores(audits["face (signature left)"].sanitized)
    both = fitted.caption_scores(audits["face and signature"].sanitized)
    groups = [("target originals", originals[:k]), ("contrast originals", originals[k:]),
              ("target, face blacked out, poster kept", face_only[has_sig]),
              ("target, face blacked out, no poster", face_only[~has_sig]),
              ("target, face and poster blacked out", both[has_sig])]
    learned = pd.DataFrame([{"images": name, "n": len(s),
                             "mean_target_score": float(np.mean(s[:, 0] - s[:, 1])) if len(s) else np.nan,
                             "share_target": float(np.mean(s[:, 0] > s[:, 1])) if len(s) else np.nan}
                            for name, s in groups])
    provenance = {"training": fitted.settings, "train_corpora": [c.provenance for c in train],
                  "train_hash": corpus_hash(images), "heldout": heldout.provenance,
                  "contrast_heldout": contrast.provenance, "config": asdict(config)}
    return FinetuneResult(config, audits, base.name, tuned.name, fitted.losses,
                          fitted.initial_loss, learned, accuracy, heldout, provenance)


__all__ = ["BASES", "CAPTION", "Config", "FinetuneResult", "IDENTITY_KINDS", "SANITIZERS",
           "SIGNATURES", "identity_scenes", "run"]
