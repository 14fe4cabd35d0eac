"""Registry: one name -> factory table per family, with metadata filters and widget labels."""

from __future__ import annotations

import pytest

from privlab.errors import PrivlabValueError
from privlab.registry import Entry, Registry


def _populated() -> Registry:
    r = Registry("widget")
    r.register("alpha", lambda scale=1: ("alpha", scale), description="first",
               modality="text", offline=True)
    r.register("beta", lambda: "beta", modality="image", offline=True)
    r.register("gamma", lambda: "gamma", description="online one", modality="text",
               offline=False)
    return r


def test_register_and_create_pass_keyword_arguments():
    r = _populated()
    assert r.create("alpha") == ("alpha", 1)
    assert r.create("alpha", scale=3) == ("alpha", 3)
    assert r.create("beta") == "beta"
    # Each create calls the factory again.
    calls = []
    r.register("counter", lambda: calls.append(1) or len(calls))
    assert (r.create("counter"), r.create("counter")) == (1, 2)


def test_names_filter_on_every_metadata_key():
    r = _populated()
    assert r.names() == ["alpha", "beta", "gamma"]
    assert r.names(offline=True) == ["alpha", "beta"]
    assert r.names(modality="text") == ["alpha", "gamma"]
    assert r.names(modality="text", offline=True) == ["alpha"]
    assert r.names(modality="audio") == []
    # A key no entry carries matches none (missing is not a wildcard).
    assert r.names(gpu=True) == []
    # None matches entries without the key.
    assert r.names(gpu=None) == ["alpha", "beta", "gamma"]


def test_entries_and_entry_keep_name_factory_description_and_meta():
    r = _populated()
    entries = r.entries(modality="text")
    assert [e.name for e in entries] == ["alpha", "gamma"]
    assert all(isinstance(e, Entry) for e in entries)
    alpha = r.entry("alpha")
    assert alpha.description == "first"
    assert alpha.meta == {"modality": "text", "offline": True}
    assert alpha.factory(scale=2) == ("alpha", 2)
    assert r.entry("beta").description == ""
    assert [e.name for e in r.entries()] == ["alpha", "beta", "gamma"]
    with pytest.raises(AttributeError):
        alpha.name = "other"  # entries are frozen


def test_len_contains_and_iteration_in_registration_order():
    r = Registry("widget")
    assert len(r) == 0 and list(r) == [] and "x" not in r
    for name in ["zeta", "alpha", "mid"]:
        r.register(name, lambda: None)
    assert len(r) == 3
    assert list(r) == ["zeta", "alpha", "mid"]  # registration order, not sorted
    assert "alpha" in r and "ALPHA" not in r and "beta" not in r
    assert 3 not in r


def test_duplicate_name_is_refused_unless_replace():
    r = _populated()
    with pytest.raises(PrivlabValueError) as info:
        r.register("alpha", lambda: "again")
    message = str(info.value)
    assert message.startswith("The 'name' parameter of widget registry register must be "
                              "a name not yet registered. Got 'alpha' instead.")
    assert "replace=True" in message
    assert r.create("alpha") == ("alpha", 1)  # the original is untouched
    r.register("alpha", lambda: "again", replace=True, modality="image")
    assert r.create("alpha") == "again"
    assert r.entry("alpha").meta == {"modality": "image"}
    assert r.entry("alpha").description == ""
    # Replacing keeps the entry's place and the count.
    assert r.names() == ["alpha", "beta", "gamma"] and len(r) == 3


@pytest.mark.parametrize("bad", ["", None, 3])
def test_empty_or_non_string_name_is_refused(bad):
    r = Registry("widget")
    with pytest.raises(PrivlabValueError) as info:
        r.register(bad, lambda: None)
    assert str(info.value) == (f"The 'name' parameter of widget registry register must be "
                               f"a non-empty string. Got {bad!r} instead.")
    assert len(r) == 0


def test_unknown_name_lists_the_known_ones():
    r = _populated()
    for call in (lambda: r.create("delta"), lambda: r.entry("delta"),
                 lambda: r.available("delta")):
        with pytest.raises(PrivlabValueError) as info:
            call()
        message = str(info.value)
        assert message.startswith("The 'name' parameter of the widget registry must be "
                                  "one of ['alpha', 'beta', 'gamma']. Got 'delta' instead.")
        assert "widget registry" in message.split("instead.")[1]


def test_options_label_description_and_missing_requirement():
    r = Registry("encoder")
    r.register("plain", lambda: 1)
    r.register("described", lambda: 2, description="has words")
    r.register("present", lambda: 3, description="uses json", requires="json")
    r.register("absent", lambda: 4, requires="privlab_no_such_module_xyz")
    r.register("absent-hint", lambda: 5, description="big model",
               requires="privlab_no_such_module_xyz", install="privlab-extra[big]")
    r.register("absent-sub", lambda: 6, requires="json.privlab_no_such_submodule")
    assert r.options() == [
        ("plain", "plain"),
        ("described — has words", "described"),
        ("present — uses json", "present"),
        ("absent [not installed: privlab_no_such_module_xyz]", "absent"),
        ("absent-hint — big model [not installed: privlab-extra[big]]", "absent-hint"),
        ("absent-sub [not installed: json.privlab_no_such_submodule]", "absent-sub"),
    ]
    assert [r.available(n) for n in r.names()] == [True, True, True, False, False, False]
    # Filters apply to options too.
    assert r.options(requires="json") == [("present — uses json", "present")]


def test_member_decorator_registers_a_class_and_a_function_unchanged():
    r = Registry("encoder")

    @r.member("adder", description="adds", modality="text", offline=True)
    class Adder:
        def __init__(self, base: int = 0):
            self.base = base

        def __call__(self, x: int) -> int:
            return self.base + x

    @r.member("greeter", modality="text")
    def greet(who: str = "world") -> str:
        return f"hello {who}"

    # Returned unchanged: still the class and the function themselves.
    assert isinstance(Adder, type) and Adder.__name__ == "Adder"
    assert greet("you") == "hello you" and greet.__name__ == "greet"
    assert r.entry("adder").factory is Adder
    assert r.entry("greeter").factory is greet
    built = r.create("adder", base=10)
    assert isinstance(built, Adder) and built(5) == 15
    assert r.create("greeter", who="privlab") == "hello privlab"
    assert r.names(modality="text") == ["adder", "greeter"]
    assert r.names(offline=True) == ["adder"]
    assert r.entry("adder").description == "adds"

    # The decorator refuses a duplicate like register does, and honours replace.
    with pytest.raises(PrivlabValueError, match="'name' parameter"):
        r.member("adder")(lambda: None)

    @r.member("adder", replace=True)
    def other_adder():
        return "replaced"

    assert r.create("adder") == "replaced" and len(r) == 2


def test_families_are_independent():
    a, b = Registry("a"), Registry("b")
    a.register("x", lambda: "from a")
    assert "x" in a and "x" not in b
    b.register("x", lambda: "from b")
    assert (a.create("x"), b.create("x")) == ("from a", "from b")
    assert a.family == "a" and b.family == "b"


def test_package_registries_share_the_class():
    from privlab.encoders import registry as encoders
    from privlab.sanitizers import registry as sanitizers

    assert isinstance(encoders, Registry) and isinstance(sanitizers, Registry)
    assert "lexical" in encoders and "lexical" in encoders.names(modality="text", offline=True)
    assert encoders.create("lexical", dim=32).name == "lexical-32"
    assert "concept-list" in sanitizers


def test_missing_parent_package_is_reported_not_raised():
    r = Registry("encoder")
    r.register("deep", lambda: None, requires="privlab_no_such_module_xyz.sub")
    assert r.available("deep") is False
    assert r.options() == [("deep [not installed: privlab_no_such_module_xyz.sub]", "deep")]


def test_create_passes_a_name_keyword_to_the_factory():
    from privlab.sanitizers import registry as sanitizers

    sanitizer = sanitizers.create("concept-list", concepts=["Ken Lay"], name="weak list")
    assert sanitizer.name == "weak list"


# --- Every family: its modules discovered, every member complete -----------------------

#: family -> (package that discovers its modules, module and attribute of the registry,
#: metadata every member declares). The members themselves are never listed here.
FAMILIES = {
    "encoder": ("privlab.encoders", "privlab.encoders.base", "registry",
                {"modality", "offline"}),
    "sanitizer": ("privlab.sanitizers", "privlab.sanitizers.base", "registry",
                  {"modality", "offline"}),
    "ε auditor": ("privlab.epsilon.auditors", "privlab.epsilon.auditors.base", "registry",
                  {"status", "benchmark"}),
    "RedacBench strategy": ("privlab.redaction.redacbench", "privlab.redaction.redacbench.strategy",
                            "strategies", {"offline", "oracle"}),
    "RedacBench judge": ("privlab.redaction.redacbench", "privlab.redaction.redacbench.judge",
                         "judges", {"offline", "oracle", "weak"}),
    "SPIA adversary": ("privlab.redaction.spia", "privlab.redaction.spia.adversaries",
                       "adversaries", {"offline", "weak"}),
    "SPIA subject matcher": ("privlab.redaction.spia", "privlab.redaction.spia.matching",
                             "matchers", {"offline"}),
    "SPIA anonymizer": ("privlab.redaction.spia", "privlab.redaction.spia.spans",
                        "anonymizers", {"oracle"}),
    "study": ("privlab.studies", "privlab.studies.contract", "registry",
              {"number", "title", "notebook"}),
}


def _family(family: str):
    import importlib

    package, module, attribute, required = FAMILIES[family]
    importlib.import_module(package).load_members()
    return importlib.import_module(package), getattr(importlib.import_module(module), attribute)


def _members():
    out = []
    for family in FAMILIES:
        _, registry = _family(family)
        out += [(family, name) for name in registry.names()]
    return out


def test_member_modules_lists_public_modules_and_subpackages(tmp_path):
    from privlab.registry import member_modules

    (tmp_path / "b_module.py").write_text("")
    (tmp_path / "a_module.py").write_text("")
    (tmp_path / "_shared.py").write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "__init__.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    assert member_modules([str(tmp_path)]) == ["a_module", "b_module", "sub"]
    assert member_modules([]) == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_module_of_a_family_package_is_loaded(family):
    import pkgutil
    import sys

    package, registry = _family(family)
    assert isinstance(registry, Registry) and registry.family
    expected = sorted(f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)
                      if not m.name.startswith("_"))
    assert list(package.load_members()) == expected
    assert all(name in sys.modules for name in expected)
    # Every member is defined in a module of the package that discovers it.
    for entry in registry.entries():
        assert entry.factory.__module__.startswith(package.__name__ + "."), entry


@pytest.mark.parametrize("family, name", _members())
def test_every_member_is_complete(family, name):
    _, registry = _family(family)
    required = FAMILIES[family][3]
    entry = registry.entry(name)
    assert callable(entry.factory)
    missing = required - set(entry.meta)
    assert not missing, f"{family} {name!r} does not declare {sorted(missing)}"
    if family != "study":
        assert entry.description.strip(), f"{family} {name!r} has no description"
    if "offline" in required:
        assert isinstance(entry.meta["offline"], bool)
    if "modality" in required:
        assert entry.meta["modality"] in ("text", "image")
    if "requires" in entry.meta:
        assert isinstance(entry.meta["requires"], str) and entry.meta["requires"]
    label = dict((n, lab) for lab, n in registry.options())[name]
    assert label.startswith(name)


def test_every_study_module_registers_one_study_under_its_own_name():
    from privlab.studies import STUDY_MODULES, load_members, registry

    modules = [m.rpartition(".")[2] for m in load_members()]
    studies = [m for m in modules if m not in ("contract", "params")]  # the contract itself
    assert sorted(STUDY_MODULES) == sorted(studies)
    for slug in registry.names():
        meta = registry.entry(slug).meta
        assert registry.entry(slug).factory.__module__ == f"privlab.studies.{slug}"
        assert meta["title"].startswith(meta["number"] + " ")
        assert meta["notebook"].startswith(meta["number"] + "_")
    numbers = [registry.entry(s).meta["number"] for s in registry.names()]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)


@pytest.mark.parametrize("family", ["sanitizer", "encoder", "SPIA adversary", "study"])
def test_a_member_in_a_new_file_is_registered_without_editing_another(family, tmp_path,
                                                                      monkeypatch):
    """A file dropped into the family's package folder registers on load_members()."""
    import sys

    package, registry = _family(family)
    package_name, module_name, attribute, required = FAMILIES[family]
    meta = {key: {"modality": "text", "offline": True, "weak": True, "number": "99",
                  "title": "99 probe", "notebook": "99_probe"}[key] for key in required}
    (tmp_path / "probe_member.py").write_text(
        f"from {module_name} import {attribute} as _registry\n\n"
        f"@_registry.member('probe-member', description='registered by discovery', **{meta!r})\n"
        "def probe(**kwargs):\n    return 'probe'\n", encoding="utf-8")
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    assert "probe-member" not in registry
    try:
        loaded = package.load_members()
        assert f"{package_name}.probe_member" in loaded
        assert "probe-member" in registry and registry.create("probe-member") == "probe"
        assert registry.names()[-1] == "probe-member" or family == "study"
    finally:
        registry._entries.pop("probe-member", None)
        sys.modules.pop(f"{package_name}.probe_member", None)
