"""The package's layers: nothing imports upward, peers stay apart, no import cycles.

privlab is built in layers, from the bottom up::

    base        privlab (facade), errors, config, hashing, io, names, registry, llm, resolution
    vision      detectors and readers (faces, OCR, ImageNet labels, image conversion)
    encoders    distance mechanisms
    sanitizers  privacy mechanisms (no knowledge of any corpus)
    datasets    corpus loaders and generators of the offline defaults
    methods     contrastive | epsilon | redaction  (peers: none imports another)
    studies     one module per notebook, on one contract
    ui          widgets, panels, plots, figures, headline report
    cli         the ``privlab`` verbs

Every import counts, also one inside a function and ``importlib.import_module`` or
``__import__`` with a literal name: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "privlab"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("privlab", "privlab.errors", "privlab.fixes", "privlab.arrays", "privlab.config", "privlab.hashing", "privlab.io",
              "privlab.names", "privlab.registry", "privlab.llm", "privlab.resolution",
              "privlab.scale", "privlab.progress")),
    ("vision", ("privlab.vision",)),
    ("encoders", ("privlab.encoders",)),
    ("sanitizers", ("privlab.sanitizers",)),
    ("datasets", ("privlab.datasets",)),
    ("methods", ("privlab.contrastive", "privlab.epsilon", "privlab.redaction")),
    ("studies", ("privlab.studies",)),
    ("ui", ("privlab.ui",)),
    ("cli", ("privlab.cli", "privlab.__main__")),
]


# Layers whose packages are independent methods: none may import another.
_ISOLATED_PEERS = {i for i, (name, _) in enumerate(LAYERS) if name == "methods"}


def _component(module: str) -> tuple[int, str]:
    """``(layer index, component)`` of a module: the longest matching prefix wins."""
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix != "privlab":
                if best is None or len(prefix) > len(best[1]):
                    best = (index, prefix)
    if best is None:
        if module == "privlab":
            return 0, "privlab"
        raise LookupError(f"{module} belongs to no layer: add it to LAYERS in tests/test_layers.py")
    return best


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every privlab module that ``source`` imports (top level, lazy and by string)."""
    tree = ast.parse(source)
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.add(name)
            # "from privlab.x import y" may import the submodule privlab.x.y
            found.update(f"{name}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            called = (func.attr if isinstance(func, ast.Attribute)
                      else func.id if isinstance(func, ast.Name) else "")
            if called in ("import_module", "__import__") and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return {m for m in found if m == "privlab" or m.startswith("privlab.")}


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


def dependency_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module -> the existing privlab modules it imports."""
    graph = {}
    for module, (source, is_package) in sources.items():
        targets = set()
        for name in imported_modules(source, module, is_package):
            while name and name not in sources:  # "from pkg import function" -> pkg
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports that go up a layer, or across peers of one layer."""
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
        _component(module)


def test_no_module_imports_a_higher_layer_or_a_peer():
    problems = layer_violations(dependency_graph(module_sources()))
    assert not problems, "\n".join(problems)


def test_no_import_cycles():
    cycles = import_cycles(_without_package_inits(dependency_graph(module_sources())))
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


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


@pytest.mark.parametrize("limit", [700])
def test_no_module_is_over_the_size_limit(limit):
    """Modules stay readable; the kernel is the one cohesive exception."""
    exempt = {"privlab.resolution"}
    long = {m: len(src.splitlines()) for m, (src, _) in module_sources().items()
            if m not in exempt and len(src.splitlines()) > limit}
    assert not long, f"modules over {limit} lines: {long}"
