"""What each study's panel shows: ``render(report, result, options)`` per study.

Renderers only draw: every number and image they show is in the result (and so in its
provenance), computed by the study's ``run``. :data:`RENDERERS` lists them by study; a
study without one is shown by its result's own ``_repr_html_``.

A renderer fills a :class:`~privlab.ui.report.Report` with the study's sections, in
reading order: tables through :func:`privlab.ui.tables.present`, figures through
:mod:`privlab.ui.plots`, witnesses as wrapped texts with the retained phrases marked.
The panel puts the headline above and the settings of the run below, so a renderer
never shows either.
"""

from __future__ import annotations

from typing import Any, Mapping

import privlab.ui.plots as plots
from privlab.ui.report import Report
from privlab.ui.tables import display_name, key_values, present

#: Colours of leak statuses (removed / caught / missed) in the leak tables.
STATUS_COLOURS = {"removed": "#d9f0d3", "caught": "#fee08b", "missed": "#f4a582"}


def _new_figure(width: float, height: float, ncols: int = 1, nrows: int = 1, **kw: Any):
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, figsize=(width, height), **kw)


# --------------------------------------------------------------------------- 00 quickstart
def quickstart(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 00: the two lists' resolutions, their decisive witnesses, the bars per text."""
    report.heading("Both concept lists")
    report.table(result.to_frame(), names={
        "concept list": "list", "concepts": "concepts removed",
        "witness (audited, reference)": "decisive witness", "difference": "signed difference"},
        columns=["concept list", "concepts", "resolution", "witness (audited, reference)",
                 "mean utility", "name still present", "encoder"])
    report.heading("The decisive witnesses")
    for label, audit in result.audits.items():
        member = audit.members[0]
        w = member.witness
        report.witness(w.audited_sanitized, w.reference_original, w.reference_sanitized,
                       terms=w.retained_terms(), difference=w.difference,
                       title=f"{label} list: released text {w.audited} against text "
                             f"{w.reference}")
    report.heading("Which texts to withhold")
    fig, axes = _new_figure(9.6, 3.6, ncols=len(result.audits), sharey=True)
    for ax, (label, audit) in zip(getattr(axes, "flat", [axes]), result.audits.items()):
        plots.per_item_violations(audit.members[0].resolution.per_audited, delta=0.0, ax=ax,
                                  title=f"{label} list")
        ax.set_xlabel("text #")
    fig.tight_layout()
    report.figure(fig)


# --------------------------------------------------------------------------- 03, 04 text
_TEXT_NAMES = {"name_matches": "name kept in", "name_share": "name kept (share)",
               "unchanged": "texts unchanged", "flagged": "texts flagged",
               "witness": "decisive witness", "max_difference": "max difference"}


def _text_table(report: Report, result: Any, caption: str = "") -> None:
    frame = result.to_frame()
    single = frame["encoder"].nunique() == 1
    main = ["sanitizer", *([] if single else ["encoder"]), "resolution", "utility", "witness",
            "name_matches", "name_share", "unchanged", "leaks caught", "leaks missed"]
    encoder = display_name(frame["encoder"].iloc[0]) if single else ""
    report.table(frame, columns=main, names=_TEXT_NAMES,
                 caption=caption or (f"under {encoder}" if encoder else ""))
    report.details("Every column", present(frame, names=_TEXT_NAMES).to_html())


def _text_witnesses(report: Report, result: Any) -> None:
    quiet = []
    for audit in result.table:
        member = audit.members[0]
        w = member.witness
        if member.value <= 0:
            quiet.append(audit.name)
            continue
        report.witness(w.audited_sanitized, w.reference_original, w.reference_sanitized,
                       terms=w.retained_terms(), difference=w.difference,
                       title=f"{audit.name} under {display_name(member.encoder)}: resolution "
                             f"{member.value:.3f} (text {w.audited} against text {w.reference})")
    if quiet:
        report.text(f"Resolution 0, so no witness to show: {', '.join(quiet)} (no released "
                    "text points towards what was removed from another; read it with the "
                    "texts-unchanged and name columns).")


def _leak_table(report: Report, result: Any) -> None:
    if not result.leaks:
        report.text("These texts carry no seeded ground truth, so there is no leak table.")
        return
    leaks = result.leak_frame()
    leaks["leak type"] = leaks["leak type"].str.replace("_", " ")
    pivot = leaks.pivot(index="leak type", columns="sanitizer", values="status")
    pivot = pivot[[c for c in dict.fromkeys(leaks["sanitizer"]) if c in pivot]]
    report.table(pivot, colours=STATUS_COLOURS,
                 notes=["removed: no text keeps it", "caught: kept, and named in a top witness",
                        "missed: kept, and no top witness names it"])


def avengers(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 03: the tradeoff plot, the table, the witnesses, the seeded clues."""
    report.heading("The privacy–utility tradeoff")
    ax = plots.privacy_utility_scatter(result.to_frame(),
                                       title="lower is more private, right keeps more")
    report.figure(ax)
    report.heading("Per sanitizer")
    _text_table(report, result)
    report.heading("Decisive witnesses, retained words highlighted")
    _text_witnesses(report, result)
    report.heading("Seeded clues: removed, caught or missed")
    _leak_table(report, result)


def enron(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 04: Table 2, the paper's count beside privlab's, witnesses, context, leaks."""
    from privlab.studies import enron as study

    corpus = result.corpus
    real = corpus.name.startswith("enron:")
    report.text(f"{len(corpus)} emails from {corpus.source}; target: {corpus.target}. "
                + (f"Selection: {study.selection_rule(corpus)}." if real
                   else "privlab's offline mailbox (no selection: every email names the "
                        "target)."))
    report.heading("Table 2: resolution beside the exact-name baseline")
    _text_table(report, result)
    ax = plots.privacy_utility_scatter(result.to_frame(),
                                       title="each tool: lower is more private")
    report.figure(ax)
    ran = [a.name for a in result.table]
    if "presidio" in ran:
        report.heading("privlab against the paper (Presidio)")
        report.table(study.paper_comparison(result, "presidio"),
                     names={"name kept": "name kept in"})
    if real:
        report.heading("The selection, rule by rule")
        report.table(study.selection_counts(corpus.source))
    report.heading("Decisive witnesses, retained words highlighted")
    _text_witnesses(report, result)
    report.heading(f"Identifying context without the name ({ran[0]})")
    context = study.context_witnesses(result, ran[0])
    if len(context):
        for _, row in context.head(3).iterrows():
            report.witness(row["sanitized x"], row["original y"], "", difference=row["difference"],
                           title=f"email {row['audited']} against email {row['reference']}",
                           labels=("released email (no name left)", "reference as written", ""))
    else:
        report.text("No top witness lost the name: every one still names the target.")
    report.heading("Seeded leaks")
    _leak_table(report, result)


# --------------------------------------------------------------------------- 07 RedacBench
def redacbench(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 07: the judge against hand labels, scores per strategy, the headline strategy."""
    docs = result.documents
    report.text(f"{len(docs)} documents, {sum(len(d.propositions) for d in docs)} "
                f"propositions, {sum(len(d.policies) for d in docs)} policies, "
                f"{sum(len(d.checks) for d in docs)} hand-labelled texts.")
    if docs:
        doc, name = docs[0], result.config.headline
        policy = doc.policies[0] if doc.policies else None
        rows = [{"proposition": p.id, "text": p.text,
                 "sensitive under": ", ".join(pol.id for pol in doc.policies
                                              if p.id in pol.sensitive) or "—"}
                for p in doc.propositions]
        redacted = (result.results[name].redacted.get((doc.id, policy.id), "")
                    if policy is not None and name in result.results else "")
        block = present(rows).to_html()
        if redacted:
            from privlab.ui.tables import witness_html

            block = witness_html(redacted, doc.text, "", title=f"{name} under policy "
                                 f"'{policy.id}'", labels=("redacted", "original", "")) + block
        report.details(f"One document of the data ({doc.id}) and its propositions", block)
    errors = result.judge_errors
    report.heading("The judge first")
    report.text(f"Judge {result.provenance['judge']}: {errors.summary()}.")
    report.text(f"Hand labels: {result.labels_note()}.")
    if errors.intervals:
        report.table({name.replace("_", " "): [f"{low:.2f} – {high:.2f}"]
                      for name, (low, high) in errors.intervals.items()},
                     caption="exact 95% intervals of the error rates")
    report.table(errors.by_origin(), caption="errors by kind of redacted text")
    labels = errors.to_frame()
    wrong = labels[labels["gold"] != labels["judged"]].head(6)
    if len(wrong):
        report.details(f"Where the judge and the hand labels disagree ({len(labels[labels['gold'] != labels['judged']])})",
                       present(wrong, columns=["document", "origin", "text", "sensitive",
                                               "gold", "judged"]).to_html())
    table = result.to_frame()
    report.heading("Scores per strategy")
    report.table(table, columns=["strategy", "security", "utility", "BLEU", "ROUGE-L",
                                 "hand security", "hand utility", "oracle", "TP", "TN", "FP",
                                 "FN"],
                 notes=["none: the unredacted baseline; read every row against it",
                        "hand security / utility: the hand labels' verdict (a careful "
                        "reader as the judge; the headline reports it first where every "
                        "text has hand labels)"])
    fig, ax = _new_figure(7, 5)
    for k, (_, row) in enumerate(table.iterrows()):
        ax.scatter(row["utility"], row["security"], s=90, color=plots.PALETTE[k % 8],
                   marker=plots.MARKERS[k % 8], zorder=4)
    ax.set(xlim=(-0.05, 1.05), ylim=(-0.05, 1.05), xlabel="utility (harmless facts kept)",
           ylabel="security (sensitive facts removed)")
    plots.label_points(ax, table["utility"].tolist(), table["security"].tolist(),
                       table["strategy"].tolist())
    ax.set_title("security–utility trade-off, under the judge", loc="left")
    report.figure(fig)
    name = result.config.headline
    if name in result.results:
        chosen = result.results[name]
        report.heading(f"The headline strategy: {name}")
        report.table(chosen.confusion_frame().rename_axis("proposition"), index=True,
                     caption="propositions, by the judge's verdict")
        report.table(chosen.by_policy(), caption="per policy")
        report.table(chosen.by_domain(), caption="per domain")
        leaks = chosen.leaks()
        report.heading("What leaked")
        if len(leaks):
            for _, row in leaks.head(4).iterrows():
                report.witness(row["redacted"], row["text"], "",
                               title=f"{row['document']} under policy '{row['policy']}'",
                               labels=("redacted text", "sensitive proposition still inferable",
                                       ""))
        else:
            report.text("The judge finds no sensitive proposition left after this strategy.")
        report.heading("How much wording survived")
        report.table(chosen.texts().head(8), columns=["document", "policy", "bleu", "rougeL"],
                     names={"bleu": "BLEU", "rougeL": "ROUGE-L"})


# --------------------------------------------------------------------------- 08 SPIA
def spia(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 08: span recall against inference protection, per tag and per person."""
    report.text(f"{result.status}. {len(result.documents)} documents, spans "
                f"{result.provenance['spans']}.")
    for name, why in result.skipped.items():
        report.text(f"Skipped {name}: {why}")
    for name, failed in result.failed.items():
        if failed:
            report.text(f"{name}: {len(failed)} documents failed and are left out of its CPR.")
    table = result.to_frame()
    report.heading("Span recall next to inference protection")
    report.table(table, columns=["anonymizer", "oracle", "token recall", "CPR", "IPR",
                                 "gap (token recall - CPR)", "recovered", "baseline recovered",
                                 "excess recovered", "recovered at certainty >= 3",
                                 "CPR target", "CPR non-target", "unmatched subjects",
                                 "subjects", "PIIs"])
    report.details("Every column", present(table).to_html())
    report.part("bars")
    fig, ax = _new_figure(9, 4.2)
    frame = table.set_index("anonymizer")[["token recall", "CPR", "IPR"]]
    frame.plot.bar(ax=ax, rot=20, color=list(plots.PALETTE[:3]), width=0.8)
    ax.set(ylim=(0, 1.05), xlabel="anonymizer", ylabel="share (1 = all)")
    ax.set_title("span recall vs inference protection", loc="left")
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=3, frameon=False)
    report.figure(fig)
    shown = result.headline_anonymizer() or table.iloc[0]["anonymizer"]
    chosen = result.protection[shown]
    report.part("tags")
    report.heading(f"Per tag and per person ({shown})")
    report.table(chosen.tag_frame(), caption="what stays inferable, per tag")
    report.table(chosen.to_frame(), caption="protection, by kind of subject")
    report.part("certainty")
    report.table(chosen.certainty_frame(), caption="what was recovered, by the certainty the "
                 "adversary gave it (below 3: its own guesses)")
    report.part("people")
    report.table(result.worst_subjects(shown, 5), caption="the five least protected people",
                 names={"O": "PIIs", "A": "recovered"})
    worst = chosen.subject_frame().iloc[0]
    index = [r.data_id for r in result.documents].index(worst["data_id"])
    report.witness(result.texts[shown][index], "", "",
                   title=f"What the adversary read for {worst['data_id']}, subject "
                         f"{worst['subject']} ({worst['description']})",
                   labels=("anonymized text", "", ""))
    report.part("departures")
    report.heading("Where privlab departs from SPIA's evaluation")
    report.table(result.departures(shown))


# --------------------------------------------------------------------------- 09 calibration
def _boundaries(report: Report, table: Any, delta: float, by: list[str], title: str) -> None:
    values = table.values_frame()
    values["encoder"] = values["encoder"].map(display_name)
    groups = list(values.groupby(by, sort=False))
    fig, ax = _new_figure(min(9.6, max(7, 1.1 * len(groups) + 3)), 4.5)
    ax.boxplot([g["boundary"].to_numpy() for _, g in groups], showfliers=True)
    names = [" · ".join(map(str, key)) if isinstance(key, tuple) else str(key)
             for key, _ in groups]
    ax.set_xticks(range(1, len(groups) + 1), names, rotation=30 if len(groups) > 3 else 0,
                  ha="right" if len(groups) > 3 else "center")
    ax.axhline(delta, color=plots.FLAGGED, ls="--", lw=1.5, label=f"resolution {delta:g}")
    ax.set_ylabel("boundary b(u, v)")
    ax.set_xlabel(" and ".join(by))
    ax.set_title(title, loc="left")
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    report.figure(fig)


def calibration(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 09: percentiles of the boundaries, and what a resolution misses, text and images."""
    from privlab.studies import calibration as study

    delta = float(options.get("delta", result.config.delta))
    text = result.text
    report.text(f"Sentences: {study.describe_source(result.config.data)}.")
    report.heading("Text: percentiles of the boundaries per pair")
    report.table(text.to_frame(), names={"p90": "90th", "p95": "95th", "p99": "99th",
                                         "kept": "sentences kept", "offered": "offered"})
    report.part("resolution")
    report.heading(f"Reading a resolution of {delta:g}")
    report.table(text.interpret(delta), names={"share below delta": f"share below {delta:g}"})
    report.part("boxplot")
    _boundaries(report, text, delta, ["pair"], "text boundaries per pair")
    images = getattr(result, "images", None)
    if images is not None:
        report.part("images")
        report.heading("Images: percentiles per member and pair")
        report.table(images.to_frame(), names={"p90": "90th", "p95": "95th", "p99": "99th",
                                               "kept": "renderings kept", "offered": "offered"})
        report.table(images.interpret(delta),
                     names={"share below delta": f"share below {delta:g}"},
                     caption=f"share of image boundaries below {delta:g}")
        _boundaries(report, images, delta, ["encoder", "pair"],
                    "image boundaries per member and pair")
        if result.renderings:
            report.part("renderings")
            report.heading("What every member is shown")
            report.figure(plots.concept_renderings(result.renderings,
                                                   dilate=result.config.image_dilate))
        ceiling = getattr(result, "ceiling", None)
        if ceiling is not None:
            report.part("ceiling")
            member = ceiling.provenance["members"][0]
            report.heading(f"A ceiling: one concept against itself ({member})")
            report.table(ceiling.to_frame(), names={"p90": "90th", "p95": "95th",
                                                    "p99": "99th", "kept": "renderings kept",
                                                    "offered": "offered"})


# --------------------------------------------------------------------------- 10 fine-tuning
def finetune(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 10: base against fine-tuned D, the blend chosen, the training curve, what it learned."""
    report.heading("Base D against the fine-tuned D")
    report.table(result.to_frame(), columns=["sanitizer", "D", "resolution", "witness",
                                             "witness_keeps_signature", "utility", "flagged"],
                 names={"witness_keeps_signature": "witness keeps the poster"})
    report.part("blend")
    report.heading("The blend, chosen on validation scenes")
    if result.mix_selection is not None and len(result.mix_selection):
        report.table(result.mix_selection)
    else:
        report.text(f"mix {result.mix:g} given in the settings (no choice on validation).")
    report.part("curve")
    report.heading("The training curve")
    fig, ax = _new_figure(7, 3.8)
    curve = result.loss_frame()
    ax.plot(curve["epoch"], curve["loss"], marker="o", color=plots.PALETTE[0])
    ax.set_yscale("log")
    ax.set(xlabel="epoch", ylabel=f"{result.config.loss} loss (log scale)")
    ax.set_title(f"{result.config.loss} loss; epoch 0 is before training", loc="left")
    report.figure(fig)
    report.part("learned")
    report.heading("What the adapted D learned")
    report.table(result.learned)


# --------------------------------------------------------------------------- 02 images
def image_study(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Studies 01 and 02: the operational condition, resolutions, placebo floors and
    excess, the scatter, witnesses, flags, agreement and the leak table."""
    report.heading("The operational condition: is the concept still there after sanitization?")
    fidelity = result.fidelity()
    if len(fidelity):
        report.table(fidelity, caption="per sanitizer and check: originals showing the "
                     "concept, and of those the sanitized images still showing it "
                     "(independent: False where the check looks with a detector the "
                     "sanitizer removes by)")
    for note in result.fidelity_notes():
        report.text(note)
    report.heading("Raw resolutions δ* (rows: sanitizers, columns: members; a sanitizer that "
                   "failed the condition is marked conditional)")
    report.table(result.marked(result.members()), index=True)
    report.heading("The placebo floor and the excess")
    report.table(result.placebo_floors().rename("placebo floor"), index=True)
    report.table(result.marked(result.excess()), index=True, caption="excess over the placebo")
    avoided = result.placebo_avoided()
    if len(avoided.columns):
        report.details("What the placebo avoided, per image",
                       present(avoided, index=True).to_html())
    report.details("Raw, floor and excess side by side",
                   present(result.comparison(), index=True).to_html())
    ax = plots.privacy_utility_scatter(result.labelled_frame(),
                                       title="one marker per member")
    report.figure(ax)
    report.heading("Decisive witnesses")
    drawn = 0
    import matplotlib.pyplot as plt

    for sanitizer in result.members().index:
        for member in result.table[sanitizer].members:
            if member.value > 0:
                fig = plots.witness_gallery(member.witness,
                                            words=result.explain(sanitizer, member.encoder),
                                            title=result.witness_title(sanitizer, member.encoder))
                report.figure(fig)
                drawn += 1
    if not drawn:
        report.text("No member found a positive trial: no witness to show.")
    plt.close("all")
    report.table(result.witnesses(), caption="every decisive witness")
    delta = float(options.get("delta", getattr(result.config, "delta", 0.0) or 0.0))
    report.heading(f"Which images to withhold (δ = {delta:g})")
    report.table(result.flags(delta), index=True)
    report.heading("Agreement between members")
    report.table(result.agreement(), index=True)
    report.table(result.zeros(), index=True, caption="zeros per member")
    report.heading("Leak detection per cue")
    if result.leak_reason is None:
        report.table(result.leak_matrix(), index=True)
    else:
        report.markdown(result.leak_reason)
    report.heading("This run, in words")
    report.markdown(result.reading())


# --------------------------------------------------------------------------- 01 ladder, miss
def dicaprio_ladder(report: Report, ladder: Any, options: Mapping[str, Any]) -> None:
    """Study 01's ladder: raw resolution, placebo and excess per rung, the bars, the cues left."""
    report.text(f"Computed on the corpus of the study's last run: {ladder.run._what()}.")
    report.heading("Raw resolution δ* per rung (columns: members)")
    report.table(ladder.table(), index=True)
    if ladder.run.has_placebo:
        report.table(ladder.table("placebo"), index=True, caption="placebo resolution")
        report.table(ladder.table("excess"), index=True, caption="excess over the placebo")
    fig, ax = _new_figure(8, 3.5)
    ladder.table().plot.bar(ax=ax, rot=0)
    ax.set_ylabel("resolution δ*")
    ax.set_title("raw resolution per rung, one bar per member (never averaged)", loc="left")
    report.figure(fig)
    report.heading("What each rung leaves of the seeded cues")
    cues = ladder.cues_removed()
    if cues is None:
        report.text("A folder of photos has no ground truth: what each rung leaves is not "
                    "known.")
    else:
        report.table(cues, index=True, caption="mean share of each cue's box blacked out")


def dicaprio_miss(report: Report, miss: Any, options: Mapping[str, Any]) -> None:
    """Study 01's detector miss: both blackouts under both face members, a witness, faces left."""
    report.text(f"Computed on the corpus of the study's last run: {miss.run._what()}.")
    report.heading("Each blackout under each face member")
    report.table(miss.to_frame())
    names = [a.name for a in miss.run.table]
    members = list(miss.run.config.encoders)
    sanitizer = next((s for s in miss.run.config.sanitizers if "haar" in s), names[0])
    member = "dlib-face" if "dlib-face" in members else members[-1]
    report.heading(f"The decisive witness of {member} on {sanitizer}")
    report.figure(plots.witness_gallery(miss.witness(sanitizer, member),
                                        title=miss.witness_title(sanitizer, member)))
    report.heading("Faces each member counts in each released image")
    report.table(miss.left(), index=True)


# --------------------------------------------------------------------------- 05 known ε
def known_epsilon(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 05: the explored setting, the null table, Figures 2 and 3, the certificates,
    the distinguishers, the stated claim, the appendix tables and the validity summary."""
    from privlab.ui.figures import plot_appendix_table, plot_method_curves, plot_power

    c = result.config
    report.heading(f"The explored setting: {c.mechanism}, {c.geometry}, n = {c.n}, "
                   f"ε = {c.epsilon:g}")
    report.table(result.explore)
    report.heading("At true ε = 0 (Table 4), beside the paper")
    report.table(result.to_frame(), index=True)
    report.table(result.null_floor, index=True, caption="GaussMech null floor (Eq. 22)")
    report.table(result.null_counts_with_paper(), index=True,
                 caption="positive bounds at ε = 0, privlab and the paper")
    report.heading("Figure 2: each auditor against the true ε")
    report.figure(plot_method_curves(result.curves))
    report.heading("Figure 3: the certificates' power")
    report.figure(plot_power(result.power, geometry=c.power_geometries[0]))
    report.table(result.side_by_side, caption="certificates side by side ("
                 + ", ".join(result.provenance.get("certificates", ())) + ")")
    if len(result.distinguisher_table):
        report.heading("Logistic regression against a small neural network")
        report.table(result.distinguisher_table)
        report.figure(plot_power(result.distinguisher_power, geometry="dispersed"))
        report.table(result.distinguisher_validity, caption="validity of each distinguisher")
    if len(result.claim_table):
        report.heading("A stated claim, tested")
        report.table(result.claim_table)
    report.heading("Appendix: the anisotropic Gaussian (Table 6) and randomized response")
    report.table(result.table6, index=True, caption="privlab")
    report.table(result.paper_table6, index=True, caption="the paper")
    report.figure(plot_appendix_table(result.table6, result.paper_table6,
                                      "anisotropic Gaussian: pairs certified > 0 (Table 6)"))
    report.table(result.rr_table, index=True, caption="randomized response, privlab")
    report.figure(plot_appendix_table(result.rr_table, result.paper_rr_table,
                                      "randomized response: fraction of pairs certified > 0"))
    report.heading("Validity: certified bounds against the true ε")
    report.table(result.validity)


# --------------------------------------------------------------------------- 06 generators
def _toy_preview(report: Report, previews: Any) -> None:
    """What the toy generators made of the shipped source photos (the result's previews)."""
    fig, axes = _new_figure(9.6, 1.3 * len(previews), nrows=len(previews), squeeze=False)
    for ax, (strength, knobs, strip) in zip(axes[:, 0], previews):
        ax.imshow(strip)
        ax.set_title(f"strength {strength:g}: "
                     + ", ".join(f"{k} {v:g}" for k, v in knobs.items()), fontsize=9)
        ax.axis("off")
    fig.tight_layout()
    report.figure(fig)


def _cascade_preview(report: Report, image: Any, config: Any) -> None:
    """The first sequences of the random-donor cascade, pass by pass (the result's image)."""
    shown = min(3, config.cascade_identities)
    side = min(2.2, 9.6 / (config.cascade_passes + 1))  # one row at most 9.6 in wide
    fig, ax = _new_figure(side * (config.cascade_passes + 1), side * shown)
    ax.imshow(image)
    ax.set_title(f"sequence 0 of targets 00–{shown - 1:02d}: start, then passes 1–"
                 f"{config.cascade_passes}", fontsize=9)
    ax.axis("off")
    fig.tight_layout()
    report.figure(fig)


def face_generators(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 06: the generators, the routes per pair, the certificates, the cascade."""
    c = result.config
    if result.previews:
        report.heading("What the toy generators make")
        _toy_preview(report, result.previews)
    report.heading("The embedding tables")
    for condition in result.conditions:
        duplicates = condition.table.report.duplicates
        report.text(f"{condition.name}: {len(duplicates)} duplicate groups.")
        if len(duplicates):
            report.table(duplicates)
    report.table(result.no_face_counts(),
                 caption="outputs with no detectable face, per identity (one shared vector; "
                         "left out of the 'faces only' rows below)")
    report.heading("Every route on every pair")
    report.table(result.to_frame())
    report.heading("Certified bounds on the selected pairs")
    report.table(result.certificates())
    report.table(result.ceiling,
                 caption=f"the ceiling: zero test errors at α per rate {result.alpha_per_rate:.4g}")
    report.details("What a documented rerun must state (Appendix A)",
                   present(result.record).to_html())
    report.heading("The random-donor cascade")
    if result.cascade is None:
        report.text("Skipped (no passes, or a table of real embeddings).")
        return
    if result.cascade_preview is not None:
        _cascade_preview(report, result.cascade_preview, c)
    report.table(result.cascade.failures, caption="detection failures, kept")
    report.table(result.cascade_table7(), caption="per pass (Table 7's shape)")
    report.table(result.cascade.certificates, caption="per-pass certificates")
    report.table(result.cascade_comparison(), caption="beside the paper")
    report.table(result.cascade_table8(), caption="Table 8's shape")


# --------------------------------------------------------------------------- 11 scale
_SCALE_NAMES = {"certified = plain": "certified = plain", "skipped fraction": "trials skipped",
                "speed-up certified": "speed-up (certified)",
                "screen found witness": "screen found witness",
                "speed-up screen": "speed-up (screen)", "planted witness": "planted pair",
                "plain-block share": "references in plain blocks"}


def scale(report: Report, result: Any, options: Mapping[str, Any]) -> None:
    """Study 11: certified vs plain, the screen and its recall, the cluster run, the cost."""
    # The planted pair reads like a witness (x → y); "—" where none was planted.
    frame = result.to_frame().rename(columns={"planted": "planted witness"})
    report.heading("Certified vs plain")
    report.table(frame, names=_SCALE_NAMES, percent=["skipped fraction", "plain-block share"],
                 columns=["scenario", "resolution", "witness", "planted witness",
                          "certified = plain", "skipped fraction", "plain-block share",
                          "plain s", "certified s", "speed-up certified"],
                 notes=["certified = plain: value, decisive witness and top list identical",
                        "references in plain blocks: scored in one pass of the plain "
                        "kernel's blocks, where the bound would skip almost nothing",
                        "seconds: one run on this machine"])
    report.part("screen")
    report.heading("The screen and its recall")
    report.table(frame, names=_SCALE_NAMES, columns=[
        "scenario", "resolution", "screen lower bound", "screen witness",
        "screen found witness", "screen s", "speed-up screen"],
        caption=f"{result.config.screen_index} screen, {result.config.screen_k} candidates "
                "per item, rescored exactly: a lower bound")
    report.part("cluster")
    report.heading("On a dask LocalCluster")
    if result.cluster:
        cluster = dict(result.cluster)
        link = str(cluster.pop("dashboard", ""))
        report.table(key_values(cluster))
        report.text(f"Dashboard while it ran: {link}")
    else:
        report.text("Skipped (0 workers).")
    report.part("cost")
    report.heading("The cost curve")
    cost = result.cost_frame()
    report.table(cost, names={"m = n": "m = n"})
    report.figure(plots.cost_curve(cost))


#: Each study's renderer, by slug, and each sub-study's, by ``<parent>.<name>`` (a study not
#: listed is drawn by its result's own display).
RENDERERS = {"quickstart": quickstart, "dicaprio": image_study, "mcdonalds": image_study,
             "avengers": avengers, "enron": enron, "known_epsilon": known_epsilon,
             "face_generators": face_generators, "redacbench": redacbench, "spia": spia,
             "calibration": calibration, "finetune": finetune, "scale": scale,
             "dicaprio.ladder": dicaprio_ladder, "dicaprio.detector_miss": dicaprio_miss}


__all__ = ["RENDERERS", "STATUS_COLOURS", "avengers", "calibration", "dicaprio_ladder", "dicaprio_miss",
           "enron", "face_generators", "finetune", "image_study", "known_epsilon", "quickstart",
           "redacbench", "scale", "spia"]
