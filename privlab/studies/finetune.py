"""Study 10 (paper §4.4.4, §5.1.1): fine-tuning the distance mechanism on coarse labels.

Does training the distance mechanism on the target's media with coarse captions only make
the test see a signature object left after a face blackout? A linear adapter (a stand-in
for the paper's fine-tuned SigLIP 2) is trained on generated scenes, its blend chosen on
validation scenes (:func:`choose_mix`), and audited with a control on held-out scenes.
See ``docs/methods/studies-finetune.md``.

    from privlab.studies import finetune
    result = finetune.run(finetune.Config())
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

from privlab.datasets.identity_scenes import IDENTITY_KINDS, SIGNATURES, identity_scenes
from privlab.datasets.scenes import CELEBRITY_TARGET, OTHER_PERSON, SceneCorpus
from privlab.errors import invalid
from privlab.progress import step
from privlab.studies.contract import Headline, Status, StudyConfig, StudyResult, registry
from privlab.studies.params import param

STUDY = "10 fine-tuning"
CAPTION = "a picture of {}"
SANITIZERS = {"face (signature left)": ("face",), "face and signature": ("face", "signature")}
FACE, CONTROL = SANITIZERS
BASES = ("efficientnet-lite0", "sface")
BASE_NAMES = {"efficientnet-lite0": "EfficientNet-Lite0", "sface": "SFace"}
MIX_CANDIDATES = (0.25, 0.5, 0.75, 1.0)
VALIDATION_SEED_OFFSET = 2000
HELDOUT_SEED_OFFSET = 1000


# ---------------------------------------------------------------------------------------
# Settings and result
# ---------------------------------------------------------------------------------------
@dataclass
class Config(StudyConfig):
    """Settings of study 10.

    Attributes:
        encoders: the frozen image encoder, audited as the base D and extended by the
            trained projection: one of ``("efficientnet-lite0",)`` or ``("sface",)``.
        loss: ``"siglip"`` or ``"clip"``.
        epochs: training passes over the gallery.
        lr: AdamW learning rate of the projection.
        gallery_size: training scenes per identity (target and contrast person).
        heldout_size: held-out scenes of the target (audited).
        seed: seeds the scenes, the initial weights and the batch order (held-out scenes
            use ``seed + 1000``, validation scenes ``seed + 2000``).
        mix: weight of the trained projection in the fine-tuned D (1: projection alone);
            None: chosen on the validation scenes by :func:`choose_mix`.
        mix_candidates: the values :func:`choose_mix` compares.
        validation_size: validation scenes of the target (for choosing ``mix``).
        top_k: witnesses kept per audit.

    Example:
        >>> Config.smoke().gallery_size
        8
    """

    encoders: tuple[str, ...] = param(("efficientnet-lite0",), label="Base D",
                                      family="encoder", names=BASES, single=True)
    loss: str = param("siglip", buttons=True, strict=True, choices=("siglip", "clip"))
    epochs: int = param(30, slider=(1, 500))
    lr: float = param(1e-2, label="Learning rate", slider=(1e-4, 1e-1), log=True)
    gallery_size: int = 40
    heldout_size: int = 20
    seed: int = 0
    mix: float | None = param(None, label="Blend m", none="validation",
                              choices=lambda: [(m, "given") for m in MIX_CANDIDATES])
    mix_candidates: tuple[float, ...] = MIX_CANDIDATES
    validation_size: int = 20
    top_k: int = 5

    @classmethod
    def smoke_settings(cls) -> dict:
        """Tiny settings for tests and ``PRIVLAB_SMOKE=1``."""
        return {"epochs": 15, "gallery_size": 8, "heldout_size": 6, "validation_size": 6}


@dataclass(frozen=True)
class FinetuneResult(StudyResult):
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
        mix: the blend weight of the fine-tuned D that was audited.
        mix_selection: a DataFrame, one row per candidate mix, of the validation
            resolutions that chose it (empty when ``config.mix`` was given).
        provenance: corpora hashes, captions and training settings.
        status: what kind of number the resolutions are.
        tuned_encoder: the fine-tuned D that was audited (an
            :class:`~privlab.encoders.adapter.AdapterEncoder` at blend ``mix``), to encode
            more images with it.
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
    mix: float = 0.5
    mix_selection: Any = field(default=None, repr=False)
    status: str = "diagnostic (model- and corpus-relative; the fine-tuned D is corpus-specific)"
    tuned_encoder: Any = field(default=None, repr=False, compare=False)

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

    def quoted_figures(self) -> dict[str, str]:
        """The figures the notebook's prose quotes (see ``privlab quote``): the blend
        audited (``mix``), the held-out resolutions (``base.face``, ``base.control``,
        ``tuned.face``, ``tuned.control``), the learned target scores of the poster groups
        (``score.poster_kept``, ``score.no_poster``, ``score.face_and_poster``) and, per
        validated blend ``m``, ``validation.m.face`` and ``validation.m.control``."""
        out = {"mix": f"{self.mix:g}"}
        for which, short in (("base", "base"), ("fine-tuned", "tuned")):
            out[f"{short}.face"] = f"{self.resolution(FACE, which):.3f}"
            out[f"{short}.control"] = f"{self.resolution(CONTROL, which):.3f}"
        for key, group in (("poster_kept", "target, face blacked out, poster kept"),
                           ("no_poster", "target, face blacked out, no poster"),
                           ("face_and_poster", "target, face and poster blacked out")):
            out[f"score.{key}"] = f"{self.target_score(group):.3f}"
        if self.mix_selection is not None:
            for row in self.mix_selection.to_dict("records"):
                out[f"validation.{row['mix']:g}.face"] = f"{row['face']:.3f}"
                out[f"validation.{row['mix']:g}.control"] = f"{row['control']:.3f}"
        return out

    @property
    def control_passes(self) -> bool:
        """Whether the held-out control (face and signature blacked out) reads 0 under
        the fine-tuned D."""
        return self.resolution(CONTROL, "fine-tuned") == 0.0

    def target_score(self, group: str) -> float:
        """Mean target score of one group of held-out images in :attr:`learned`."""
        return float(self.learned.set_index("images").loc[group, "mean_target_score"])

    @property
    def poster_learned(self) -> bool:
        """Whether held-out scenes with the face blacked out and the poster kept score
        above both poster-free groups."""
        kept = self.target_score("target, face blacked out, poster kept")
        return bool(kept > self.target_score("target, face blacked out, no poster")
                    and kept > self.target_score("target, face and poster blacked out"))

    def mechanism(self) -> str:
        """The fine-tuned D in words: the stand-in it is, and how ``mix`` was set."""
        base = BASE_NAMES.get(self.config.encoders[0], self.config.encoders[0])
        how = "chosen on validation" if self.config.mix is None else "given"
        return (f"linear adapter on frozen {base} + MiniLM, not CLIP ({self.config.loss} loss, "
                f"mix {self.mix:g} {how}, {self.config.epochs} epochs)")

    def summary(self) -> str:
        """Base vs fine-tuned resolution on the face blackout and the held-out control
        (a failed control said first)."""
        control = self.resolution(CONTROL, "fine-tuned")
        values = (f"{FACE}: base δ*={self.resolution(FACE, 'base'):.4f} vs fine-tuned "
                  f"δ*={self.resolution(FACE, 'fine-tuned'):.4f}")
        if self.control_passes:
            return (f"{self.mechanism()}: {values}; held-out control ({CONTROL} blacked out) "
                    f"fine-tuned δ*={control:.4f}, passes")
        return (f"{self.mechanism()}: held-out control ({CONTROL} blacked out) FAILS at "
                f"fine-tuned δ*={control:.4f}, so the fine-tuned value is not evidence of an "
                f"exposed leak (it cannot be told apart from the black boxes): {values}")

    def headline_line(self) -> str:
        """:meth:`summary` in fewer than 30 words."""
        control = self.resolution(CONTROL, "fine-tuned")
        values = (f"{FACE}: base δ*={self.resolution(FACE, 'base'):.4f} vs fine-tuned "
                  f"δ*={self.resolution(FACE, 'fine-tuned'):.4f}")
        if self.control_passes:
            return f"{values}; held-out control fine-tuned δ*={control:.4f}, passes"
        return (f"held-out control FAILS at fine-tuned δ*={control:.4f}, so not evidence of "
                f"an exposed leak: {values}")

    def headline(self) -> Headline:
        """:meth:`headline_line` with the mechanism and the control beneath it, its status
        and what it rests on."""
        kept = self.target_score("target, face blacked out, poster kept")
        gone = self.target_score("target, face and poster blacked out")
        details = [f"fine-tuned D: {self.mechanism()}",
                   f"held-out control: {CONTROL} blacked out"
                   + ("" if self.control_passes else "; a failed control means the fine-tuned "
                      "value cannot be told apart from the black boxes")]
        status, note = Status.split(self.status) or (Status.DIAGNOSTIC, self.status)
        return Headline(STUDY, self.headline_line(), status, (
            f"generated identity scenes ({self.config.gallery_size} training, "
            f"{self.config.validation_size} validation and {self.config.heldout_size} "
            "held-out per identity; a sample photo as the face)",
            f"fine-tuned D: {self.mechanism()}, trained on this corpus's coarse captions "
            f"(held-out identity accuracy {self.identity_accuracy:.2f})",
            f"target score of held-out scenes, face blacked out: poster kept {kept:.3f}, "
            f"face and poster blacked out {gone:.3f}: the adapter has "
            f"{'singled out' if self.poster_learned else 'not singled out'} the poster"),
            details=tuple(details), status_note=note)

    def _repr_html_(self) -> str:
        frame = self.to_frame().drop(columns=["encoder"])
        parts = [f"<div><b>Study 10, fine-tuning D</b> ({html.escape(self.status)}): "
                 f"{html.escape(self.summary())}.",
                 frame.to_html(index=False, float_format=lambda v: f"{v:.4f}"),
                 *([f"<p>Choosing mix on {self.config.validation_size} validation scenes "
                    f"({html.escape(MIX_RULE)}):</p>",
                    self.mix_selection.to_html(index=False, float_format=lambda v: f"{v:.4f}")]
                   if self.mix_selection is not None and len(self.mix_selection) else []),
                 "<p>What the fine-tuned D associates with the target (held-out images):</p>",
                 self.learned.to_html(index=False, float_format=lambda v: f"{v:.3f}"),
                 "</div>"]
        return "".join(parts)


# ---------------------------------------------------------------------------------------
# The study
# ---------------------------------------------------------------------------------------
MIX_RULE = ("the largest candidate whose control (face and poster blacked out) passes at 0 "
            "on the validation scenes; if none passes, the smallest candidate")


def _valid_mix(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1


def _check_config(config: Config) -> None:
    caller = "finetune.run"
    if not isinstance(config, Config):
        raise invalid("config", caller, "a privlab.studies.finetune.Config", config)
    if config.encoders[0] not in BASES:
        raise invalid("encoders", caller, f"one of {[(b,) for b in BASES]}", config.encoders)
    for name in ("gallery_size", "heldout_size", "validation_size"):
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 2:
            raise invalid(name, caller, "an int of at least 2", value)
    if config.mix is not None and not _valid_mix(config.mix):
        raise invalid("mix", caller, "a float in (0, 1] or None (chosen on validation)",
                      config.mix)
    candidates = tuple(config.mix_candidates)
    if not candidates or not all(_valid_mix(m) for m in candidates):
        raise invalid("mix_candidates", caller, "a non-empty tuple of floats in (0, 1]",
                      config.mix_candidates)


def choose_mix(encoder: Any, scenes: SceneCorpus, candidates: Sequence[float], *,
               top_k: int = 5):
    """Choose the blend weight of an adapter on validation scenes, by :data:`MIX_RULE`.

    Only the control blackout (face and signature) enters the choice, so it favours no
    outcome of the face-blackout audit.

    Args:
        encoder: the trained :class:`privlab.encoders.adapter.AdapterEncoder`.
        scenes: validation scenes of the target (not used for training or the held-out
            audit).
        candidates: blend weights in (0, 1].
        top_k: witnesses kept per audit.

    Returns:
        ``(mix, frame)``: the chosen weight and one row per candidate (mix, face,
        control, control passes, chosen).
    """
    import pandas as pd

    from privlab.contrastive import audit
    from privlab.datasets.scene_cues import cue_blackout

    sanitized = {label: cue_blackout(scenes, kinds, name=label).sanitize(list(scenes.images))
                 for label, kinds in SANITIZERS.items()}
    rows = []
    for mix in sorted(set(float(m) for m in candidates)):
        tuned = encoder.with_mix(mix)
        value = {label: audit(scenes.images, sanitized=out, encoders=[tuned],
                              top_k=top_k).members[0].value
                 for label, out in sanitized.items()}
        rows.append({"mix": mix, "face": value[FACE], "control": value[CONTROL],
                     "control passes": value[CONTROL] == 0})
    frame = pd.DataFrame(rows)
    mix = pick_mix(frame)
    frame["chosen"] = frame["mix"] == mix
    return mix, frame


def pick_mix(frame) -> float:
    """:data:`MIX_RULE` applied to validation rows (columns mix and control).

    Example:
        >>> import pandas as pd
        >>> rows = pd.DataFrame({"mix": [0.25, 0.5, 1.0], "control": [0.0, 0.0, 0.19]})
        >>> pick_mix(rows)          # 1.0 fails its control
        0.5
        >>> pick_mix(rows.assign(control=[0.02, 0.04, 0.1]))   # none passes: the smallest
        0.25
    """
    passing = frame.loc[frame["control"] == 0, "mix"]
    return float(passing.max() if len(passing) else frame["mix"].min())


def heldout_scenes(config: Config) -> SceneCorpus:
    """The held-out scenes of the target that :func:`run` audits (seed ``seed + 1000``).

    Example:
        >>> len(heldout_scenes(Config(heldout_size=3)))
        3
    """
    return identity_scenes(CELEBRITY_TARGET, config.heldout_size,
                           seed=config.seed + HELDOUT_SEED_OFFSET)


@registry.member("finetune", number="10", title=STUDY, notebook="10_finetuning")
def run(config: Config | None = None) -> FinetuneResult:
    """Train the adapter on coarse captions, then audit held-out scenes under base and tuned D.

    Args:
        config: settings (default :meth:`Config.for_notebook`).

    Returns:
        A :class:`FinetuneResult`.

    Raises:
        ValueError: an unknown base encoder, loss or a bad size.
    """
    import pandas as pd

    from privlab.contrastive import audit, corpus_hash
    from privlab.encoders import get_encoder
    from privlab.encoders.adapter import train_adapter
    from privlab.datasets.scene_cues import cue_blackout

    config = config or Config.for_notebook()
    _check_config(config)
    step("drawing the training scenes", 0, 4)
    people = (CELEBRITY_TARGET, OTHER_PERSON)
    train = [identity_scenes(p, config.gallery_size, seed=config.seed) for p in people]
    images = [img for corpus in train for img in corpus.images]
    captions = [CAPTION.format(p) for p, corpus in zip(people, train) for _ in corpus.scenes]
    step(f"training the adapter ({config.epochs} epochs)", 1, 4)
    fitted = train_adapter(images, captions, base=config.encoders[0], loss=config.loss,
                           epochs=config.epochs, lr=config.lr, seed=config.seed)
    step("choosing the blend on validation scenes", 2, 4)
    selection = None
    mix = config.mix
    if mix is None:
        validation = identity_scenes(CELEBRITY_TARGET, config.validation_size,
                                     seed=config.seed + VALIDATION_SEED_OFFSET)
        mix, selection = choose_mix(fitted.encoder, validation, config.mix_candidates,
                                    top_k=config.top_k)
    tuned = fitted.encoder.with_mix(mix)
    base = get_encoder(config.encoders[0])

    heldout_seed = config.seed + HELDOUT_SEED_OFFSET
    heldout = heldout_scenes(config)
    contrast = identity_scenes(OTHER_PERSON, config.heldout_size, seed=heldout_seed)
    step("auditing the held-out scenes", 3, 4)
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
    face_only = fitted.caption_scores(audits[FACE].sanitized)
    both = fitted.caption_scores(audits[CONTROL].sanitized)
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
                  "contrast_heldout": contrast.provenance, "config": asdict(config),
                  "mix": mix, "mix_rule": MIX_RULE if config.mix is None else "given",
                  "validation_seed": (config.seed + VALIDATION_SEED_OFFSET
                                      if config.mix is None else None)}
    step("fine-tuning done", 4, 4)
    return FinetuneResult(config, audits, base.name, tuned.name, fitted.losses,
                          fitted.initial_loss, learned, accuracy, heldout, mix, selection,
                          provenance=provenance, tuned_encoder=tuned)


__all__ = ["BASES", "BASE_NAMES", "CAPTION", "CELEBRITY_TARGET", "CONTROL", "Config", "FACE",
           "FinetuneResult", "HELDOUT_SEED_OFFSET", "IDENTITY_KINDS", "MIX_CANDIDATES",
           "MIX_RULE", "SANITIZERS", "SIGNATURES", "choose_mix", "heldout_scenes",
           "identity_scenes", "pick_mix", "run"]
