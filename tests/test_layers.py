"""The package's layers, as README ("Package layout") and CONTRIBUTING.md state them.

privlab is built in layers, from the bottom up; a module imports only its own layer or a
lower one::

    base        the top-level modules, in three tiers; a tier imports only the tiers below:
                  core      errors, hashing, status         (import no privlab module)
                  helpers   arrays, config, io, names, registry, progress, fixes, report
                  services  llm | resolution (the kernel)   (neither imports the other)
    vision      detectors and readers (faces, OCR, ImageNet labels, image conversion)
    encoders    distance mechanisms
    scale       the kernel's answer with less work (certified pruning, screens, dask)
    sanitizers  privacy mechanisms (no knowledge of any corpus)
    corpora and methods, side by side (none imports another; a study joins them):
                datasets | contrastive | epsilon | redaction
    studies     one module per notebook, on one contract
    ui          widgets, panels, plots, figures, headline report
    cli         the ``privlab`` verbs
    facade      privlab (the package's __init__): re-exports the public verbs of every
                layer (``privlab.audit`` lives in contrastive), so it sits on top; no
                module imports it

What counts as an import:

* every import statement, also one inside a function: a lazy import is still a dependency;
* ``importlib.import_module``, ``__import__`` and ``privlab.errors.require`` with a name
  the checker can read: a literal, a module-level string constant, or a sum or f-string
  of those (``"privlab.ui." + "panels"`` is ``privlab.ui.panels``); a name completed at
  run time after a literal package (``f"privlab.studies.{slug}"``,
  ``f"{__name__}.{name}"``) imports that package.

Any other computed import is refused unless :data:`COMPUTED_IMPORTS` declares it, with
the module-level literal table its names come from (each entry then counts as an
import) and why. Beyond the layers, the test refuses: an underscored name (or module)
imported from another component (``from privlab.resolution import _x``,
``privlab.studies._images`` outside studies, ``resolution._x``); ``ipywidgets`` or
``IPython`` imported outside ``privlab/ui/``; a module importing the facade ``privlab`` or
its own package's facade; import cycles; and modules over 700 lines.
README's and CONTRIBUTING's layout blocks list the same layers and base tiers in the same
order (:func:`test_the_docs_state_these_layers_in_this_order`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "privlab"

#: The base layer's tiers, bottom up: a base module imports only from lower tiers.
BASE_TIERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("privlab.errors", "privlab.hashing", "privlab.status")),
    ("helpers", ("privlab.arrays", "privlab.config", "privlab.io", "privlab.names",
                 "privlab.registry", "privlab.progress", "privlab.fixes", "privlab.report")),
    ("services", ("privlab.llm", "privlab.resolution")),
]

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", tuple(m for _, members in BASE_TIERS for m in members)),
    ("vision", ("privlab.vision",)),
    ("encoders", ("privlab.encoders",)),
    ("scale", ("privlab.scale",)),
    ("sanitizers", ("privlab.sanitizers",)),
    ("methods", ("privlab.datasets", "privlab.contrastive", "privlab.epsilon",
                 "privlab.redaction")),
    ("studies", ("privlab.studies",)),
    ("ui", ("privlab.ui",)),
    ("cli", ("privlab.cli", "privlab.__main__")),
    # The facade re-exports verbs from every layer (privlab.audit is contrastive's), so it
    # is the top; nothing may import it (layer_violations), so this costs no layering.
    ("facade", ("privlab",)),
]

# Layers whose components are independent: none may import another.
_ISOLATED_PEERS = {i for i, (name, _) in enumerate(LAYERS) if name == "methods"}

#: Third-party packages that only ``privlab.ui`` imports (a study, a method or the CLI
#: that needs one is drawing: that belongs to the ui).
UI_ONLY = ("ipywidgets", "IPython")
UI_PACKAGE = "privlab.ui"

#: The computed imports privlab allows: ``(module, argument as written)`` -> (the
#: module-level literal table its names come from, or None when each caller names the
#: module itself; why the name is computed).
COMPUTED_IMPORTS: dict[tuple[str, str], tuple[str | None, str]] = {
    ("privlab", "_LAZY[name]"): (
        "_LAZY", "the package facade imports a verb's module on first use (privlab.audit), "
                 "so importing privlab stays cheap"),
    ("privlab.ui", "_EXPORTS[name]"): (
        "_EXPORTS", "the ui facade imports an exported name's module on first use, so "
                    "importing privlab.ui stays cheap"),
    ("privlab.cli.main", "name"): (
        "_COMMAND_MODULES", "each subcommand module registers its own parser"),
    ("privlab.epsilon.validity", "path"): (
        "_CP_MODULES", "the power check swaps the Clopper-Pearson bound inside the modules "
                       "that read it, and restores it"),
    ("privlab.studies.params", "FAMILIES[family]"): (
        "FAMILIES", "a Config field names the registry family its choices come from; the "
                    "family is imported when a panel lists its members"),
    ("privlab.cli.audit", "module_name"): (
        None, "--sanitizer MODULE:FUNCTION names the user's own module (never a privlab one)"),
    ("privlab.errors", "module"): (
        None, "require() imports an optional third-party dependency; every require(...) "
              "call names the module and counts as importing it"),
}

_IMPORTERS = {"import_module", "__import__", "require"}

#: Underscored modules still used from another component, each with what removes it.
#: The list only shrinks: an entry no longer used fails
#: :func:`test_pending_private_uses_are_still_there`.
PENDING_PRIVATE_USES: dict[tuple[str, str], str] = {}


@dataclass
class Scan:
    """What one module imports: ``(name, line)`` pairs and what the checker refuses."""

    imports: list[tuple[str, int]] = field(default_factory=list)
    computed: list[tuple[str, int]] = field(default_factory=list)  # undeclared
    private: list[tuple[str, str, int]] = field(default_factory=list)  # (owner, name, line)


def _constants(tree: ast.Module) -> dict[str, object]:
    """Module-level ``NAME = <literal>`` assignments."""
    out = {}
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) and node.value else [])
        for target in targets:
            if isinstance(target, ast.Name):
                try:
                    out[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    pass
    return out


def _leading_text(node: ast.AST, constants: dict, own: str) -> tuple[str, bool]:
    """``(the text known before run time, whether that is the whole string)``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, True
    if isinstance(node, ast.Name):
        value = own if node.id == "__name__" else constants.get(node.id)
        return (value, True) if isinstance(value, str) else ("", False)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, whole = _leading_text(node.left, constants, own)
        if not whole:
            return left, False
        right, whole = _leading_text(node.right, constants, own)
        return left + right, whole
    if isinstance(node, ast.JoinedStr):
        text = ""
        for part in node.values:
            if isinstance(part, ast.Constant):
                text += str(part.value)
                continue
            if isinstance(part, ast.FormattedValue) and part.conversion == -1 \
                    and part.format_spec is None:
                piece, whole = _leading_text(part.value, constants, own)
                text += piece
                if whole:
                    continue
            return text, False
        return text, True
    return "", False


def _computed_target(text: str) -> str | None:
    """The package a name completed at run time lies in, when its known start says so."""
    package = text.rpartition(".")[0]
    if not package or package == "privlab" or "privlab".startswith(text):
        return None  # e.g. "privlab." + x or "priv" + x could be anything
    return package


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def scan(source: str, module: str, is_package: bool = False) -> Scan:
    """Every module ``source`` imports (statements, lazy, by a readable name) and the
    computed imports and underscored names the checker refuses."""
    tree = ast.parse(source)
    constants = _constants(tree)
    package = module if is_package else module.rpartition(".")[0]
    found = Scan()
    aliases: dict[str, str] = {}

    def add(name: str, line: int) -> None:
        found.imports.append((name, line))
        parts = name.split(".")
        for i, part in enumerate(parts[1:], start=1):
            if _private(part) and name.startswith("privlab."):
                found.private.append((".".join(parts[:i]), part, line))
                break

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name, node.lineno)
                if a.name.startswith("privlab"):
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else "privlab"
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            add(name, node.lineno)
            for a in node.names:
                # "from privlab.x import y" may import the submodule privlab.x.y
                if _private(a.name) and name.startswith("privlab"):
                    found.private.append((name, a.name, node.lineno))
                elif name.startswith("privlab"):
                    add(f"{name}.{a.name}", node.lineno)
                if name.startswith("privlab"):
                    aliases[a.asname or a.name] = f"{name}.{a.name}"
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = (func.attr if isinstance(func, ast.Attribute)
                      else func.id if isinstance(func, ast.Name) else "")
            if called not in _IMPORTERS:
                continue
            text, whole = _leading_text(node.args[0], constants, module)
            target = text if whole else _computed_target(text)
            if target:
                add(target, node.lineno)
                continue
            written = ast.unparse(node.args[0])
            declared = COMPUTED_IMPORTS.get((module, written))
            if declared is None:
                found.computed.append((written, node.lineno))
            elif declared[0] is not None:
                table = constants.get(declared[0])
                names = table.values() if isinstance(table, dict) else table
                if not names or not all(isinstance(n, str) for n in names):
                    found.computed.append((written, node.lineno))
                else:
                    for name in names:
                        add(name, node.lineno)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            dotted = _dotted(node.value)
            if dotted:
                root, _, rest = dotted.partition(".")
                if root in aliases:
                    owner = ".".join(p for p in (aliases[root], rest) if p)
                    found.private.append((owner, node.attr, node.lineno))
    found.private = list(dict.fromkeys(found.private))
    return found


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every privlab module that ``source`` imports (top level, lazy and by name)."""
    return {m for m, _ in scan(source, module, is_package).imports
            if m == "privlab" or m.startswith("privlab.")}


def module_sources(root: Path = PACKAGE) -> dict[str, tuple[str, bool]]:
    """``{module: (source, is_package)}`` for every file of the package."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path.read_text(encoding="utf-8"), is_package)
    return out


#: Top-level modules that give a method's verbs a short name (``privlab.spia.score``):
#: each only re-exports the public names of the component it names here, and belongs to
#: that component (:func:`test_alias_modules_only_reexport_their_component`).
ALIASES: dict[str, str] = {"privlab.spia": "privlab.redaction.spia",
                           "privlab.redacbench": "privlab.redaction.redacbench"}


def _component(module: str) -> tuple[int, str]:
    """``(layer index, component)`` of a module: the longest matching prefix wins."""
    module = ALIASES.get(module, module)
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix != "privlab":
                if best is None or len(prefix) > len(best[1]):
                    best = (index, prefix)
    if best is None:
        if module == "privlab":
            return len(LAYERS) - 1, "privlab"
        raise LookupError(f"{module} belongs to no layer: add it to LAYERS in tests/test_layers.py")
    return best


def _tier(component: str) -> tuple[int, str]:
    for index, (name, members) in enumerate(BASE_TIERS):
        if component in members:
            return index, name
    raise LookupError(f"{component} is in the base layer but in no tier: add it to BASE_TIERS")


def _existing(name: str, sources) -> str:
    while name and name not in sources:  # "from pkg import function" -> pkg
        name = name.rpartition(".")[0]
    return name


def dependency_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module -> the existing privlab modules it imports."""
    graph = {}
    for module, (source, is_package) in sources.items():
        targets = set()
        for name in imported_modules(source, module, is_package):
            name = _existing(name, sources)
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports that go up a layer (or a base tier), or across peers of one layer."""
    problems = []
    for module, targets in sorted(graph.items()):
        layer, component = _component(module)
        for target in sorted(targets):
            if target == "privlab":
                if module.startswith("privlab."):
                    problems.append(f"{module} imports the facade 'privlab'; import the module "
                                    "that defines the name instead")
                continue
            if module.startswith(target + "."):
                problems.append(f"{module} imports its own package's facade {target}; "
                                "import the module that defines the name instead")
                continue
            t_layer, t_component = _component(target)
            if t_layer > layer:
                problems.append(f"{module} ({LAYERS[layer][0]}) imports {target} "
                                f"({LAYERS[t_layer][0]}), a higher layer")
            elif t_layer == layer and t_component != component and layer in _ISOLATED_PEERS:
                problems.append(f"{module} imports its peer {target} ({LAYERS[layer][0]} layer)")
            elif t_layer == layer == 0 and t_component != component:
                (tier, name), (t_tier, t_name) = _tier(component), _tier(t_component)
                if t_tier >= tier:
                    problems.append(f"{module} (base: {name}) imports {target} (base: {t_name}); "
                                    "a base module imports only from the tiers below its own")
    return problems


def other_violations(sources: dict[str, tuple[str, bool]],
                     pending: dict[tuple[str, str], str] | None = None) -> list[str]:
    """Undeclared computed imports, another component's underscored names (but the
    ``pending`` ones), and UI packages imported outside ``privlab.ui``."""
    pending = PENDING_PRIVATE_USES if pending is None else pending
    problems = []
    for module, (source, is_package) in sorted(sources.items()):
        found = scan(source, module, is_package)
        for written, line in found.computed:
            problems.append(
                f"{module}:{line} imports a module whose name is computed ({written}); use a "
                "literal name, or declare the table it comes from in COMPUTED_IMPORTS "
                "(tests/test_layers.py) with the reason")
        component = _component(module)[1]
        for owner, name, line in found.private:
            owner = _existing(owner, sources)
            if (module, f"{owner}.{name}") in pending:
                continue
            if owner and owner != "privlab" and _component(owner)[1] != component:
                problems.append(f"{module}:{line} uses {name}, a private name of {owner}; give "
                                "it a public name there (or keep its use inside "
                                f"{_component(owner)[1]})")
        if module != UI_PACKAGE and not module.startswith(UI_PACKAGE + "."):
            for name, line in found.imports:
                if name.split(".")[0] in UI_ONLY:
                    problems.append(f"{module}:{line} imports {name}; {', '.join(UI_ONLY)} are "
                                    f"imported only under privlab/ui/")
    return problems


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def _without_package_inits(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Drop the edges from a package's ``__init__`` to its own submodules.

    A package re-exporting its members is the facade of that package; the cycle that
    matters is a submodule importing its own package's facade (kept).
    """
    return {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}


def test_every_module_belongs_to_a_layer():
    for module in module_sources():
        layer, component = _component(module)
        if layer == 0:
            _tier(component)


def test_alias_modules_only_reexport_their_component():
    sources = module_sources()
    for alias, target in ALIASES.items():
        source, _ = sources[alias]
        imported = imported_modules(source, alias)
        assert imported and all(m == target or m.startswith(target + ".") for m in imported), \
            f"{alias} imports {sorted(imported)}; an alias re-exports {target} only"
        tree = ast.parse(source)
        assert all(isinstance(node, (ast.ImportFrom, ast.Expr)) for node in tree.body), \
            f"{alias} defines something: an alias holds imports only"


def test_no_module_imports_a_higher_layer_or_a_peer():
    problems = layer_violations(dependency_graph(module_sources()))
    assert not problems, "\n".join(problems)


def test_no_computed_import_private_name_or_ui_package_out_of_place():
    problems = other_violations(module_sources())
    assert not problems, "\n".join(problems)


def test_pending_private_uses_are_still_there():
    sources = module_sources()
    uses = {(module, f"{_existing(owner, sources)}.{name}")
            for module, (source, is_package) in sources.items()
            for owner, name, _ in scan(source, module, is_package).private}
    gone = set(PENDING_PRIVATE_USES) - uses
    assert not gone, f"no longer used, drop from PENDING_PRIVATE_USES: {sorted(gone)}"
    # Without the list, the pending uses are reported (and, with none pending, nothing is).
    assert bool(other_violations(sources, pending={})) == bool(PENDING_PRIVATE_USES)


def test_no_import_cycles():
    cycles = import_cycles(_without_package_inits(dependency_graph(module_sources())))
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_declared_computed_imports_exist_and_name_privlab_modules():
    """Each declared computed import is still in its module, and its table lists modules
    that exist (so the layers above were checked on real targets)."""
    sources = module_sources()
    for (module, written), (table, _) in COMPUTED_IMPORTS.items():
        source, _ = sources[module]
        tree = ast.parse(source)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
                 and ast.unparse(n.args[0]) == written]
        assert calls, f"{module} no longer imports {written}: drop it from COMPUTED_IMPORTS"
        if table is not None:
            names = _constants(tree)[table]
            names = names.values() if isinstance(names, dict) else names
            assert all(n in sources for n in names), (module, table, names)


def test_checker_catches_an_inverted_import():
    """A deliberately inverted import (the kernel importing a study) is reported."""
    graph = dependency_graph({
        "privlab.resolution": ("def f():\n    from privlab.studies import quickstart\n", False),
        "privlab.studies": ("", True),
        "privlab.studies.quickstart": ("import privlab.resolution\n", False),
    })
    assert graph["privlab.resolution"] == {"privlab.studies", "privlab.studies.quickstart"}
    problems = layer_violations(graph)
    assert problems == [
        "privlab.resolution (base) imports privlab.studies (studies), a higher layer",
        "privlab.resolution (base) imports privlab.studies.quickstart (studies), a higher layer"]
    assert import_cycles(graph) == [["privlab.resolution", "privlab.studies.quickstart"]]


def test_checker_catches_peers_and_string_imports():
    graph = dependency_graph({
        "privlab.epsilon": ("", True),
        "privlab.redaction": ("", True),
        "privlab.epsilon.benchmark": ("import importlib\n"
                                      "importlib.import_module('privlab.redaction')\n", False),
    })
    assert layer_violations(graph) == ["privlab.epsilon.benchmark imports its peer "
                                       "privlab.redaction (methods layer)"]


def test_checker_catches_a_method_importing_a_corpus():
    graph = dependency_graph({
        "privlab.datasets": ("", True),
        "privlab.datasets.scene_cues": ("", False),
        "privlab.contrastive": ("", True),
        "privlab.contrastive.ensemble": (
            "def f(corpus):\n    from privlab.datasets.scene_cues import cue_blackout\n", False),
    })
    assert layer_violations(graph) == ["privlab.contrastive.ensemble imports its peer "
                                       "privlab.datasets.scene_cues (methods layer)"]


def test_checker_catches_the_kernel_importing_llm():
    graph = dependency_graph({
        "privlab.llm": ("from privlab.config import cache_dir\n", True),
        "privlab.config": ("from privlab.errors import invalid\n", False),
        "privlab.errors": ("", False),
        "privlab.resolution": ("from privlab.errors import invalid\n"
                               "def f():\n    from privlab.llm import complete\n", False),
    })
    assert layer_violations(graph) == [
        "privlab.resolution (base: services) imports privlab.llm (base: services); "
        "a base module imports only from the tiers below its own"]
    graph["privlab.errors"] = {"privlab.config"}
    assert layer_violations(graph)[0].startswith(
        "privlab.errors (base: core) imports privlab.config (base: helpers)")


@pytest.mark.parametrize("call", [
    'importlib.import_module("privlab.ui." + "panels")',
    'importlib.import_module(PANELS)',
    'importlib.import_module(f"privlab.ui.{name}")',
    'importlib.import_module(f"{ROOT}.ui.panels")',
    '__import__("privlab.ui.panels")',
])
def test_checker_reads_names_built_from_literals(call):
    source = ("import importlib\nROOT = 'privlab'\nPANELS = 'privlab.ui.panels'\n"
              f"def f(name):\n    return {call}\n")
    sources = {"privlab.contrastive": ("", True), "privlab.contrastive.x": (source, False),
               "privlab.ui": ("", True), "privlab.ui.panels": ("", False)}
    graph = dependency_graph(sources)
    assert graph["privlab.contrastive.x"] & {"privlab.ui", "privlab.ui.panels"}
    problems = layer_violations(graph)
    assert problems and all(p.startswith("privlab.contrastive.x (methods) imports privlab.ui")
                            and p.endswith("a higher layer") for p in problems)
    assert other_violations(sources) == []


@pytest.mark.parametrize("argument", ["name", "'privlab.' + name", "PREFIX + name",
                                      "f'priv{name}'", "names[0]", "''.join(parts)"])
def test_checker_refuses_an_undeclared_computed_import(argument):
    source = ("import importlib\nPREFIX = 'privlab.'\n"
              f"def f(name, names, parts):\n    return importlib.import_module({argument})\n")
    problems = other_violations({"privlab.contrastive": ("", True),
                                 "privlab.contrastive.x": (source, False)})
    assert problems == [f"privlab.contrastive.x:4 imports a module whose name is computed "
                        f"({ast.unparse(ast.parse(argument, mode='eval').body)}); use a literal "
                        "name, or declare the table it comes from in COMPUTED_IMPORTS "
                        "(tests/test_layers.py) with the reason"]


def test_checker_reads_a_declared_table_as_imports():
    sources = {"privlab.cli": ("", True), "privlab.cli.demo": ("", False),
               "privlab.studies": ("", True),
               "privlab.cli.main": ("import importlib\n_COMMAND_MODULES = ['privlab.cli.demo']\n"
                                    "for name in _COMMAND_MODULES:\n"
                                    "    importlib.import_module(name)\n", False)}
    assert dependency_graph(sources)["privlab.cli.main"] == {"privlab.cli.demo"}
    assert other_violations(sources) == []
    # A table that lists a higher layer's module is checked like a literal import.
    sources["privlab.ui"] = ("import importlib\n_EXPORTS = {'x': 'privlab.cli.demo'}\n"
                             "def f(name):\n    importlib.import_module(_EXPORTS[name])\n", True)
    assert "privlab.ui (ui) imports privlab.cli.demo (cli), a higher layer" in \
        layer_violations(dependency_graph(sources))


def test_checker_catches_ui_packages_outside_ui():
    sources = {
        "privlab.studies": ("", True),
        "privlab.studies.x": ("def show():\n    import ipywidgets as w\n", False),
        "privlab.studies.y": ("from IPython.display import display\n", False),
        "privlab.studies.z": ("from privlab.errors import require\n"
                              "w = require('ipywidgets', 'ipywidgets', 'x')\n", False),
        "privlab.ui": ("", True),
        "privlab.ui.w": ("import ipywidgets\nfrom IPython.display import display\n", False),
    }
    assert other_violations(sources) == [
        "privlab.studies.x:2 imports ipywidgets; ipywidgets, IPython are imported only "
        "under privlab/ui/",
        "privlab.studies.y:1 imports IPython.display; ipywidgets, IPython are imported "
        "only under privlab/ui/",
        "privlab.studies.z:2 imports ipywidgets; ipywidgets, IPython are imported only "
        "under privlab/ui/"]


def test_checker_catches_private_names_across_components():
    sources = {
        "privlab.resolution": ("def _row_norms(a):\n    return a\n", False),
        "privlab.scale": ("", True),
        "privlab.scale.a": ("from privlab.resolution import _row_norms, check_top_k\n", False),
        "privlab.scale.b": ("import privlab.resolution as r\nx = r._row_norms\n", False),
        "privlab.scale.c": ("from privlab import resolution\nx = resolution._row_norms\n", False),
        "privlab.scale.d": ("from privlab.scale import _helpers\n", False),
        "privlab.studies": ("", True),
        "privlab.studies._images": ("", False),
        "privlab.studies.x": ("from privlab.studies._images import run\n", False),
        "privlab.ui": ("", True),
        "privlab.ui.r": ("from privlab.studies._images import Result\n", False),
    }
    assert other_violations(sources) == [
        "privlab.scale.a:1 uses _row_norms, a private name of privlab.resolution; give it a "
        "public name there (or keep its use inside privlab.resolution)",
        "privlab.scale.b:2 uses _row_norms, a private name of privlab.resolution; give it a "
        "public name there (or keep its use inside privlab.resolution)",
        "privlab.scale.c:2 uses _row_norms, a private name of privlab.resolution; give it a "
        "public name there (or keep its use inside privlab.resolution)",
        "privlab.ui.r:1 uses _images, a private name of privlab.studies; give it a public "
        "name there (or keep its use inside privlab.studies)"]


def _layout_block(document: str, heading: str) -> str:
    text = (PACKAGE.parent / document).read_text(encoding="utf-8")
    section = text[text.index(heading):]
    return section.split("```")[1]


@pytest.mark.parametrize("document, heading", [("README.md", "## Package layout"),
                                               ("CONTRIBUTING.md", "## Layout")])
def test_the_docs_state_these_layers_in_this_order(document, heading):
    """README's and CONTRIBUTING's layout blocks name every component in LAYERS' order,
    every base module before the first folder, and the tiers in BASE_TIERS' order."""
    block = _layout_block(document, heading)
    lines = block.splitlines()
    folder_line = {}
    for layer, (_, components) in enumerate(LAYERS[1:], start=1):
        for component in components:
            if component in ("privlab.__main__", "privlab"):
                continue
            folder = component.split(".")[1] + "/"
            found = [i for i, line in enumerate(lines) if line.strip().startswith(folder)]
            assert found, f"{document} does not list {folder}"
            folder_line[component] = (layer, found[0])
    order = sorted(folder_line.values(), key=lambda pair: pair[1])
    assert [layer for layer, _ in order] == sorted(layer for layer, _ in order), \
        f"{document} lists the folders out of LAYERS' order"
    base = "\n".join(lines[: min(line for _, line in folder_line.values())])
    positions = []
    for _, members in BASE_TIERS:
        names = [m.split(".")[1] for m in members]
        found = {n: re.search(rf"\b{n}\b", base) for n in names}
        missing = [n for n, match in found.items() if match is None]
        assert not missing, f"{document} does not name the base modules {missing}"
        positions.append([match.start() for match in found.values()])
    for lower, higher in zip(positions, positions[1:]):
        assert max(lower) < min(higher), f"{document} lists the base tiers out of order"


@pytest.mark.parametrize("limit", [700])
def test_no_module_is_over_the_size_limit(limit):
    """Modules stay readable (the kernel too: it is a package of one idea per module)."""
    long = {m: len(src.splitlines()) for m, (src, _) in module_sources().items()
            if len(src.splitlines()) > limit}
    assert not long, f"modules over {limit} lines: {long}"


def test_the_facade_reaches_every_family_verb_after_import_privlab_alone():
    """``import privlab`` then ``privlab.spia.score``: no submodule import needed first."""
    import subprocess
    import sys

    code = ("import privlab; print(privlab.audit.__module__, privlab.epsilon.audit.__module__,"
            " privlab.spia.score.__module__, privlab.redacbench.score.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["privlab.contrastive.byo", "privlab.epsilon.byo",
                                  "privlab.redaction.spia.byo",
                                  "privlab.redaction.redacbench.byo"]
