"""The shape of the package, read from the ``ast`` of every module: import cycles, upward imports, sizes.

Usage: python tests/shape.py [--json] [--check] [--runtime-only] [--top N] [--package NAME=DIR ...]

It reads every ``.py`` file of the package's folders (engine/ as ``monopoly``, cli/ as ``monopoly.cli``, as the
build's ``package-dir`` maps them; ``--package`` names others) without importing any of them, and reports:

- **Cycles**: the strongly connected components of the import graph with more than one module, or a module
  that imports itself, each with its modules, the edges inside it (runtime or type-only, and whether in a
  function) and one shortest cycle through it as an example. The runtime edges alone are looked at too: a
  component held together only by type-only edges costs nothing at run time, but it is still a circle of
  dependencies.
- **Upward imports**: an import from a module of a lower layer (below) into a higher one, or sideways between
  two layers of one rank.
- **Sizes**: each class's lines and methods (the largest first), every function or method over 80 lines, each
  module's lines.

``--json`` prints all of it as one JSON object. The report always exits 0; ``--check`` exits 1 when there is a
cycle, an upward import or a module no layer holds (a module that cannot be checked fails rather than passes
unseen). Type-only edges count in the check unless ``--runtime-only`` leaves them out.

What counts as an import
------------------------
Every ``import`` and ``from ... import`` anywhere in a module: at the top, inside functions and methods (marked
"in a function", as lazy imports are), in ``try`` blocks and class bodies. Relative imports are resolved against
the module's package. ``from X import name`` is an edge to the module ``X.name`` when that is a module of the
package, else to ``X``; ``import a.b.c`` is an edge to the longest of ``a.b.c``, ``a.b``, ``a`` that is a module.
The parent packages Python runs on the way (``monopoly.game``'s ``__init__`` for ``monopoly.game.events``) are
not edges: every module would otherwise sit in a circle with its own package's ``__init__``. An import inside
``if TYPE_CHECKING:`` (or ``if typing.TYPE_CHECKING:``) is type-only; its ``else:`` branch is runtime. Imports of
names computed at run time (``importlib.import_module(name)``, such as the lazy workbench names of
``monopoly.__getattr__``) are not seen. Imports from outside the package are left out.

How lengths are counted
-----------------------
A class or function runs from its first decorator (or its ``def``/``class`` line when it has none) to the last
line of its last statement, both included: ``end_lineno - first_line + 1``. Its docstring, comments and blank
lines inside count; comments after its last statement do not. Nested functions are reported under their
qualified name (``Outer.method.inner``) and also count in the lines of what holds them. A class's methods are
the functions written directly in its body (properties, static and class methods included; a nested class's
methods are that class's). A module's lines are its physical lines (``wc -l``).

The layers
----------
Bottom to top; a module may import from its own layer and the layers below. Issue #31 names the order
"ruleset -> effects -> game -> agents -> analysis -> cli": the order in which a file becomes a game. The imports
run that way from the game up; below it they run the other way round, and the layers say so: the effect language
knows nothing of rulesets (it is given the names it may use), while the ruleset's loader checks every effect text
with it (``ruleset.semantics``) and the model keeps its parsed effects. So:

1. ``base``: ``monopoly._mypyc`` (the compiled build's class marks), ``monopoly.files`` (the one writer of
   files) and ``monopoly.suggest`` (the "did you mean" of every checker). Leaves that every layer may use.
2. ``effects``: the effect language (grammar, parser, checker, compiler) and what it needs of a game in play
   (``effects.host``, an interface the game implements).
3. ``ruleset``: files -> the frozen ``Ruleset``, its effect texts checked with the language.
4. ``game``: the state, the rules and the turn loop.
5. ``agents``: the bots and the agents' protocol, which play games.
6. ``sim``: ``monopoly.sim``, batches of games of agents. Above agents (it makes them by name) and below
   analysis, whose ``compare`` and ``balance`` play their games through it.
7. ``analysis``: odds, money tables, pictures, compare, balance.
8. ``env`` | ``web`` (one rank, two layers that must not import each other): applications of the engine for
   learning and for people at a table. The web table draws the board with ``analysis.render``, so the rank sits
   above analysis; nothing of the library imports either.
9. ``api``: ``monopoly`` itself (``engine/__init__.py``). It re-exports the public names of every layer, so it
   is above them all; it is a layer rather than exempt so that a module of the library that imports
   ``monopoly`` (a sure circle through the re-exports) is named as an upward import.
10. ``cli``: ``monopoly.cli``, the command line, which uses only the public API.

A subpackage's ``__init__`` belongs to its subpackage's layer (``LAYERS`` below lists each layer's modules).

>>> shape = scan({"monopoly": ROOT / "engine", "monopoly.cli": ROOT / "cli"})
>>> shape.modules["monopoly.game.game"].layer
'game'
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Each import package of the code and its folder (pyproject.toml's package-dir; the data folders hold no code).
PACKAGES: dict[str, Path] = {"monopoly": ROOT / "engine", "monopoly.cli": ROOT / "cli"}

#: The layers by rank, bottom first; two layers of one rank must not import each other (see the docstring).
RANKS: tuple[tuple[str, ...], ...] = (
    ("base",), ("effects",), ("ruleset",), ("game",), ("agents",), ("sim",), ("analysis",), ("env", "web"),
    ("api",), ("cli",),
)
#: The modules of each layer, as patterns (``fnmatch``: ``*`` matches dots too): a package's name holds its
#: ``__init__``, ``name.*`` everything under it. The most specific (longest) matching pattern decides; a module
#: no pattern matches is reported, so a new subpackage must be placed before the check passes.
LAYERS: dict[str, tuple[str, ...]] = {
    "base": ("monopoly._mypyc", "monopoly.files", "monopoly.suggest"),
    "ruleset": ("monopoly.ruleset", "monopoly.ruleset.*"),
    "effects": ("monopoly.effects", "monopoly.effects.*"),
    "game": ("monopoly.game", "monopoly.game.*"),
    "agents": ("monopoly.agents", "monopoly.agents.*"),
    "sim": ("monopoly.sim",),
    "analysis": ("monopoly.analysis", "monopoly.analysis.*"),
    "env": ("monopoly.env", "monopoly.env.*"),
    "web": ("monopoly.web", "monopoly.web.*"),
    "api": ("monopoly",),
    "cli": ("monopoly.cli", "monopoly.cli.*"),
}

#: A function or method longer than this many lines is listed.
LONG_FUNCTION = 80

RUNTIME = "runtime"
TYPE_ONLY = "type-only"


@dataclass
class Import:
    """One import statement's edge (one per imported module of the statement)."""

    source: str
    target: str
    line: int
    type_only: bool
    in_function: bool


@dataclass
class Edge:
    """Every import of ``target`` by ``source``, summed up: runtime when any of them is."""

    source: str
    target: str
    kind: str  # RUNTIME or TYPE_ONLY
    in_function: bool  # every runtime import of it (or, for a type-only edge, every import) is in a function
    lines: list[int]


@dataclass
class ClassSize:
    module: str
    name: str
    line: int
    lines: int
    methods: int


@dataclass
class FunctionSize:
    module: str
    name: str
    line: int
    lines: int


@dataclass
class Module:
    name: str
    path: str
    lines: int
    layer: str | None


@dataclass
class Cycle:
    """A strongly connected component of the import graph with more than one module, or a self-loop."""

    modules: list[str]
    edges: list[Edge]
    #: The components the runtime edges alone make inside it (empty: only type-only edges close the circle).
    runtime_cycles: list[list[str]]
    #: One shortest cycle through the component, as modules, the first repeated at the end.
    example: list[str]


@dataclass
class Upward:
    source: str
    source_layer: str
    target: str
    target_layer: str
    kind: str
    in_function: bool
    lines: list[int]
    sideways: bool  # between two layers of one rank


@dataclass
class Shape:
    modules: dict[str, Module]
    edges: list[Edge]
    cycles: list[Cycle]
    upward: list[Upward]
    unlayered: list[str]
    #: Imports under the package's names that name no module of it (a relative import above the top, a typo).
    unresolved: list[Import]
    classes: list[ClassSize]  # the largest first
    functions: list[FunctionSize]  # every function and method, the longest first
    ranks: list[list[str]] = field(default_factory=list)

    def long_functions(self, limit: int = LONG_FUNCTION) -> list[FunctionSize]:
        return [f for f in self.functions if f.lines > limit]

    def problems(self, runtime_only: bool = False) -> list[str]:
        """What fails the check, one line each (empty: it passes)."""
        found = []
        for cycle in self.cycles:
            if runtime_only and not cycle.runtime_cycles:
                continue
            found.append(f"cycle of {len(cycle.modules)} modules: {' -> '.join(cycle.example)}")
        for up in self.upward:
            if runtime_only and up.kind == TYPE_ONLY:
                continue
            found.append(f"{'sideways' if up.sideways else 'upward'} import: {up.source} ({up.source_layer}) -> "
                         f"{up.target} ({up.target_layer})")
        found.extend(f"no layer holds {name}" for name in self.unlayered)
        return found

    def to_json(self, runtime_only: bool = False) -> dict[str, Any]:
        data = asdict(self)
        data["modules"] = list(data["modules"].values())
        data["long_functions"] = [asdict(f) for f in self.long_functions()]
        data["unresolved"] = [asdict(i) for i in self.unresolved]
        data["check"] = {"runtime_only": runtime_only, "problems": self.problems(runtime_only)}
        return data


# ---------------------------------------------------------------------- reading the modules


def find_modules(packages: Mapping[str, Path]) -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its ``__init__.py``)."""
    folders = sorted(((Path(folder).resolve(), name) for name, folder in packages.items()),
                     key=lambda item: len(item[0].parts), reverse=True)
    modules: dict[str, Path] = {}
    seen: set[Path] = set()
    for folder, package in folders:
        for path in sorted(folder.rglob("*.py")):
            # a file under a nested package's own folder belongs to that package (looked at first)
            if path in seen:
                continue
            seen.add(path)
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _ImportFinder(ast.NodeVisitor):
    """Collects a module's imports with where they stand (in a function, under ``if TYPE_CHECKING:``)."""

    def __init__(self, module: str, is_package: bool):
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[tuple[str, str | None, int, bool, bool]] = []  # (base, name or None, line, type, func)
        self._functions = 0
        self._type_only = 0

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        self._type_only += 1
        for statement in node.body:
            self.visit(statement)
        self._type_only -= 1
        for statement in node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, None, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            parts = self.package.split(".") if self.package else []
            up = node.level - 1
            if up > len(parts) - 1:  # above the top package: the import cannot work
                base = "." * node.level + (node.module or "")
                for alias in node.names:
                    self._add(base, alias.name, node.lineno)
                return
            base = ".".join(parts[:len(parts) - up] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            self._add(base, None if alias.name == "*" else alias.name, node.lineno)

    def _add(self, base: str, name: str | None, line: int) -> None:
        self.found.append((base, name, line, self._type_only > 0, self._functions > 0))


def _resolve(base: str, name: str | None, modules: Mapping[str, Path]) -> str | None:
    """The module an import stands for: ``base.name`` when that is a module, else the longest module of
    ``base`` and its packages; None when none is."""
    if name is not None and f"{base}.{name}" in modules:
        return f"{base}.{name}"
    parts = base.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _first_line(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])


def _length(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    end = node.end_lineno if node.end_lineno is not None else node.lineno
    return end - _first_line(node) + 1


def _sizes(tree: ast.Module, module: str) -> tuple[list[ClassSize], list[FunctionSize]]:
    classes: list[ClassSize] = []
    functions: list[FunctionSize] = []

    def walk(body: Iterable[ast.AST], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                name = prefix + node.name
                methods = sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in node.body)
                classes.append(ClassSize(module, name, _first_line(node), _length(node), methods))
                walk(node.body, name + ".")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + node.name
                functions.append(FunctionSize(module, name, _first_line(node), _length(node)))
                walk(node.body, name + ".")
            else:  # definitions under if/try/with/for stand at the level of what holds them
                walk(ast.iter_child_nodes(node), prefix)

    walk(tree.body, "")
    return classes, functions


# ---------------------------------------------------------------------- the graph


def strongly_connected(nodes: Sequence[str], edges: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; in the order they complete."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(edges.get(successor, ()))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def _cycles_of(nodes: Sequence[str], edges: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The components that are cycles: more than one module, or one that imports itself."""
    return [c for c in strongly_connected(nodes, edges) if len(c) > 1 or c[0] in edges.get(c[0], ())]


def shortest_cycle(members: Sequence[str], edges: Mapping[str, Sequence[str]]) -> list[str]:
    """One shortest cycle inside ``members`` (ties: the first module by name), as a path back to its start."""
    inside = set(members)
    best: list[str] = []
    for start in sorted(members):
        previous: dict[str, str] = {}
        queue = deque([start])
        seen = {start}
        found = None
        while queue and found is None:
            node = queue.popleft()
            for successor in sorted(edges.get(node, ())):
                if successor not in inside:
                    continue
                if successor == start:
                    found = node
                    break
                if successor not in seen:
                    seen.add(successor)
                    previous[successor] = node
                    queue.append(successor)
        if found is None:
            continue
        path = [found]
        while path[-1] != start:
            path.append(previous[path[-1]])
        cycle = [*reversed(path), start]
        if not best or len(cycle) < len(best):
            best = cycle
    return best


def layer_of(module: str, layers: Mapping[str, Sequence[str]]) -> str | None:
    """The layer of the longest pattern that matches ``module``; None when none does."""
    best: tuple[int, str] | None = None
    for layer, patterns in layers.items():
        for pattern in patterns:
            if fnmatchcase(module, pattern) and (best is None or len(pattern) > best[0]):
                best = (len(pattern), layer)
    return best[1] if best else None


def scan(packages: Mapping[str, Path] | None = None, layers: Mapping[str, Sequence[str]] | None = None,
         ranks: Sequence[Sequence[str]] | None = None) -> Shape:
    """The shape of the packages (by default the project's, with its layers)."""
    packages = PACKAGES if packages is None else packages
    layers = LAYERS if layers is None else layers
    ranks = RANKS if ranks is None else ranks
    rank_of = {layer: rank for rank, names in enumerate(ranks) for layer in names}
    paths = find_modules(packages)
    modules: dict[str, Module] = {}
    imports: list[Import] = []
    unresolved: list[Import] = []
    classes: list[ClassSize] = []
    functions: list[FunctionSize] = []
    roots = tuple(packages)
    for name in sorted(paths):
        path = paths[name]
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        layer = layer_of(name, layers)
        modules[name] = Module(name, _display(path), len(text.splitlines()), layer)
        finder = _ImportFinder(name, path.name == "__init__.py")
        finder.visit(tree)
        for base, imported, line, type_only, in_function in finder.found:
            target = _resolve(base, imported, paths)
            if target is not None:
                imports.append(Import(name, target, line, type_only, in_function))
            elif base.startswith(".") or any(base == r or base.startswith(r + ".") for r in roots):
                shown = f"{base}.{imported}" if imported else base
                unresolved.append(Import(name, shown, line, type_only, in_function))
        found_classes, found_functions = _sizes(tree, name)
        classes.extend(found_classes)
        functions.extend(found_functions)

    edges = _edges(imports)
    every: dict[str, list[str]] = {}
    runtime: dict[str, list[str]] = {}
    for edge in edges:
        every.setdefault(edge.source, []).append(edge.target)
        if edge.kind == RUNTIME:
            runtime.setdefault(edge.source, []).append(edge.target)
    names = sorted(modules)
    runtime_cycles = _cycles_of(names, runtime)
    cycles = []
    for members in _cycles_of(names, every):
        inside = set(members)
        cycles.append(Cycle(
            modules=members,
            edges=[e for e in edges if e.source in inside and e.target in inside],
            runtime_cycles=[c for c in runtime_cycles if c[0] in inside],
            example=shortest_cycle(members, every)))
    cycles.sort(key=lambda c: (-len(c.modules), c.modules[0]))

    upward = []
    for edge in edges:
        source_layer, target_layer = modules[edge.source].layer, modules[edge.target].layer
        if source_layer is None or target_layer is None or source_layer == target_layer:
            continue
        source_rank, target_rank = rank_of.get(source_layer, -1), rank_of.get(target_layer, -1)
        if target_rank >= source_rank:
            upward.append(Upward(edge.source, source_layer, edge.target, target_layer, edge.kind, edge.in_function,
                                 edge.lines, sideways=target_rank == source_rank))
    unlayered = [name for name, module in modules.items() if module.layer not in rank_of]
    classes.sort(key=lambda c: (-c.lines, c.module, c.name))
    functions.sort(key=lambda f: (-f.lines, f.module, f.name))
    return Shape(modules, edges, cycles, upward, unlayered, unresolved, classes, functions,
                 [list(names) for names in ranks])


def _edges(imports: Iterable[Import]) -> list[Edge]:
    grouped: dict[tuple[str, str], list[Import]] = {}
    for found in imports:
        grouped.setdefault((found.source, found.target), []).append(found)
    edges = []
    for (source, target), group in sorted(grouped.items()):
        runtime = [i for i in group if not i.type_only]
        counted = runtime or group
        edges.append(Edge(source, target, RUNTIME if runtime else TYPE_ONLY,
                          all(i.in_function for i in counted), sorted({i.line for i in group})))
    return edges


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------- the report


def _how(kind: str, in_function: bool) -> str:
    return kind + (", in a function" if in_function else "")


def _lines(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))


def report(shape: Shape, top: int = 15, runtime_only: bool = False) -> str:
    out: list[str] = []
    add = out.append
    total = sum(m.lines for m in shape.modules.values())
    runtime_edges = sum(e.kind == RUNTIME for e in shape.edges)
    add(f"{len(shape.modules)} modules, {total:,} lines; {len(shape.edges)} import edges inside the package "
        f"({runtime_edges} runtime, {len(shape.edges) - runtime_edges} type-only)")

    add("")
    add(f"Cycles: {len(shape.cycles)}")
    for number, cycle in enumerate(shape.cycles, 1):
        kinds = [e.kind for e in cycle.edges]
        add(f"  {number}. {len(cycle.modules)} modules; edges inside: {kinds.count(RUNTIME)} runtime "
            f"({sum(e.in_function for e in cycle.edges if e.kind == RUNTIME)} of them in a function), "
            f"{kinds.count(TYPE_ONLY)} type-only")
        if cycle.runtime_cycles:
            sizes = ", ".join(str(len(c)) for c in cycle.runtime_cycles)
            add(f"     on runtime edges alone: {len(cycle.runtime_cycles)} cycle(s) of {sizes} modules")
        else:
            add("     on runtime edges alone: none (only type-only edges close it)")
        add(f"     shortest: {' -> '.join(cycle.example)}")
        add("     modules: " + ", ".join(cycle.modules))
        add("     edges:")
        for edge in cycle.edges:
            add(f"       {edge.source} -> {edge.target}  ({_how(edge.kind, edge.in_function)}, "
                f"{_lines(edge.lines)})")

    order = " < ".join(" | ".join(names) for names in shape.ranks)
    add("")
    add(f"Upward imports: {len(shape.upward)} (layers, bottom first: {order})")
    for up in shape.upward:
        word = "sideways " if up.sideways else ""
        add(f"  {word}{up.source} ({up.source_layer}) -> {up.target} ({up.target_layer})  "
            f"({_how(up.kind, up.in_function)}, {_lines(up.lines)})")
    if shape.unlayered:
        add("Modules no layer holds: " + ", ".join(shape.unlayered))
    if shape.unresolved:
        add("Imports of the package's names that name no module of it:")
        for found in shape.unresolved:
            add(f"  {found.source} line {found.line}: {found.target}")

    add("")
    add(f"Largest classes (of {len(shape.classes)}): lines, methods")
    for cls in shape.classes[:top or None]:
        add(f"  {cls.lines:6,} {cls.methods:4}  {cls.module}.{cls.name}")
    long = shape.long_functions()
    add("")
    add(f"Functions and methods over {LONG_FUNCTION} lines: {len(long)}")
    for function in long:
        add(f"  {function.lines:6,}  {function.module}.{function.name} (line {function.line})")
    add("")
    add(f"Largest modules (of {len(shape.modules)}): lines")
    for module in sorted(shape.modules.values(), key=lambda m: (-m.lines, m.name))[:top or None]:
        add(f"  {module.lines:6,}  {module.name}")

    problems = shape.problems(runtime_only)
    add("")
    what = "runtime edges only" if runtime_only else "runtime and type-only edges"
    add(f"Check ({what}): " + ("passes" if not problems else f"fails, {len(problems)} problem(s)"))
    return "\n".join(out)


def _package(text: str) -> tuple[str, Path]:
    name, sep, folder = text.partition("=")
    if not sep or not name or not folder:
        raise argparse.ArgumentTypeError(f"--package takes NAME=DIR, not {text!r}")
    return name, Path(folder)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print the whole shape as JSON")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on a cycle, an upward import or a module no layer holds")
    parser.add_argument("--runtime-only", action="store_true",
                        help="leave type-only imports out of the check")
    parser.add_argument("--top", type=int, default=15, help="how many classes and modules the report lists (0: all)")
    parser.add_argument("--package", type=_package, action="append",
                        help="an import package and its folder, NAME=DIR (default: the project's)")
    args = parser.parse_args(argv)
    shape = scan(dict(args.package) if args.package else None)
    if args.json:
        print(json.dumps(shape.to_json(args.runtime_only), indent=1))
    else:
        print(report(shape, args.top, args.runtime_only))
    if args.check:
        problems = shape.problems(args.runtime_only)
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
