"""The shape tool (tests/shape.py) on small packages written for each test: it finds what it should and nothing
more. The project itself is checked in tests/test_shape.py."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from .shape import LONG_FUNCTION, RUNTIME, TYPE_ONLY, main, scan

#: One layer for every module of the package ``pkg``: tests of the graph alone, with no layer to break.
FLAT = {"all": ("pkg", "pkg.*")}
FLAT_RANKS = (("all",),)


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (paths relative to ``root``, every folder given an ``__init__.py``) and return ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for folder in {(root / name).parent for name in files}:
        while True:
            (folder / "__init__.py").touch()
            if folder == root:
                break
            folder = folder.parent
    return root


def flat(tmp_path: Path, files: dict[str, str]):
    return scan({"pkg": write(tmp_path / "pkg", files)}, FLAT, FLAT_RANKS)


def function(name: str, length: int, decorated: bool = False) -> str:
    """The text of a function of exactly ``length`` lines, decorator included."""
    head = ["@staticmethod"] if decorated else []
    head.append(f"def {name}():")
    body = [f"    x{i} = {i}" for i in range(length - len(head))]
    return "\n".join(head + body) + "\n"


# ---------------------------------------------------------------------- the graph


def test_a_cycle_is_found_with_its_modules_and_edges(tmp_path):
    shape = flat(tmp_path, {"a.py": "from . import b\n", "b.py": "from .c import x\n", "c.py": "from .a import y\n",
                            "d.py": "from . import a\n"})
    assert [cycle.modules for cycle in shape.cycles] == [["pkg.a", "pkg.b", "pkg.c"]]
    cycle = shape.cycles[0]
    assert {(e.source, e.target, e.kind) for e in cycle.edges} == {
        ("pkg.a", "pkg.b", RUNTIME), ("pkg.b", "pkg.c", RUNTIME), ("pkg.c", "pkg.a", RUNTIME)}
    assert cycle.runtime_cycles == [["pkg.a", "pkg.b", "pkg.c"]]
    assert cycle.example == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    assert shape.problems()


def test_no_cycle_in_a_tree_of_imports(tmp_path):
    shape = flat(tmp_path, {"a.py": "from . import b, c\n", "b.py": "from .c import x\n", "c.py": "import os\n"})
    assert shape.cycles == []
    assert shape.problems() == []


def test_a_module_that_imports_itself_is_a_cycle(tmp_path):
    shape = flat(tmp_path, {"a.py": "def f():\n    from pkg import a\n"})
    assert [cycle.modules for cycle in shape.cycles] == [["pkg.a"]]
    assert shape.cycles[0].example == ["pkg.a", "pkg.a"]


def test_an_import_under_type_checking_is_type_only(tmp_path):
    shape = flat(tmp_path, {
        "a.py": """\
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from .b import B
            else:
                from .c import C
            """,
        "b.py": "from . import a\n",
        "c.py": "import typing\nif typing.TYPE_CHECKING:\n    from . import a\n"})
    kinds = {(e.source, e.target): e.kind for e in shape.edges}
    assert kinds == {("pkg.a", "pkg.b"): TYPE_ONLY, ("pkg.a", "pkg.c"): RUNTIME, ("pkg.b", "pkg.a"): RUNTIME,
                     ("pkg.c", "pkg.a"): TYPE_ONLY}
    # the circle is there, but no runtime edges close it
    assert [cycle.modules for cycle in shape.cycles] == [["pkg.a", "pkg.b", "pkg.c"]]
    assert shape.cycles[0].runtime_cycles == []
    assert shape.problems() and shape.problems(runtime_only=True) == []


def test_an_edge_imported_both_ways_is_runtime(tmp_path):
    shape = flat(tmp_path, {"a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n"
                                    "def f():\n    from . import b\n",
                            "b.py": "x = 1\n"})
    [edge] = shape.edges
    assert (edge.kind, edge.in_function, edge.lines) == (RUNTIME, True, [3, 5])


def test_imports_are_resolved_to_modules(tmp_path):
    shape = flat(tmp_path, {
        "__init__.py": "from .sub import thing\n",
        "sub/__init__.py": "thing = 1\n",
        "sub/deep.py": """\
            import pkg.sub.leaf
            import pkg.sub.leaf.missing
            from .. import top
            from ..sub import thing
            from . import leaf, thing
            from ... import above
            import os.path
            class C:
                def method(self):
                    from .leaf import name
            """,
        "sub/leaf.py": "",
        "top.py": "",
    })
    found = {(e.source, e.target, e.in_function) for e in shape.edges}
    assert found == {
        ("pkg", "pkg.sub", False),  # a name of the package: its __init__
        ("pkg.sub.deep", "pkg.sub.leaf", False),  # a module, imported in every way
        ("pkg.sub.deep", "pkg.top", False),
        ("pkg.sub.deep", "pkg.sub", False),  # `thing` is a name of the package, not a module
    }
    assert [i.line for i in shape.unresolved] == [6]  # above the top package


def test_an_import_inside_a_function_counts_and_is_marked(tmp_path):
    shape = flat(tmp_path, {"a.py": "async def f():\n    from . import b\n", "b.py": "import pkg.a\n"})
    marks = {(e.source, e.target): e.in_function for e in shape.edges}
    assert marks == {("pkg.a", "pkg.b"): True, ("pkg.b", "pkg.a"): False}
    assert len(shape.cycles) == 1


# ---------------------------------------------------------------------- layers


def monopoly_like(tmp_path: Path, extra: dict[str, str]) -> Path:
    """A package laid out as the project's (engine/ as ``monopoly``), checked with the project's layers."""
    files = {"engine/__init__.py": "from .game import Game\n", "engine/files.py": "",
             "engine/ruleset/model.py": "", "engine/game/state.py": "from ..ruleset import model\n",
             "engine/game/__init__.py": "from .state import Game\n", "cli/main.py": "import monopoly\n"}
    return write(tmp_path, {**files, **extra})


def project_scan(root: Path):
    return scan({"monopoly": root / "engine", "monopoly.cli": root / "cli"})


def test_the_project_layers_pass_a_package_that_imports_downward(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {}))
    assert shape.modules["monopoly"].layer == "api"
    assert shape.modules["monopoly.cli.main"].layer == "cli"
    assert shape.upward == [] and shape.unlayered == [] and shape.cycles == []


def test_an_upward_import_is_found(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {"engine/ruleset/semantics.py": """\
        from .model import x
        def check():
            from ..game.state import Game
        """}))
    [up] = shape.upward
    assert (up.source, up.source_layer, up.target, up.target_layer) == \
        ("monopoly.ruleset.semantics", "ruleset", "monopoly.game.state", "game")
    assert (up.kind, up.in_function, up.lines, up.sideways) == (RUNTIME, True, [3], False)
    assert shape.problems() == ["upward import: monopoly.ruleset.semantics (ruleset) -> monopoly.game.state (game)"]


def test_a_type_only_upward_import_is_found_and_can_be_left_out(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {
        "engine/files.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game.state import Game\n"}))
    [up] = shape.upward
    assert (up.source_layer, up.target_layer, up.kind) == ("base", "game", TYPE_ONLY)
    assert shape.problems(runtime_only=True) == []


def test_importing_the_public_api_from_inside_the_library_is_upward(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {"engine/analysis/render.py": "import monopoly\n"}))
    assert [(u.source, u.target_layer) for u in shape.upward] == [("monopoly.analysis.render", "api")]


def test_two_layers_of_one_rank_must_not_import_each_other(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {"engine/web/table.py": "from ..env import codec\n",
                                                  "engine/env/codec.py": "from ..analysis import render\n",
                                                  "engine/analysis/render.py": ""}))
    [up] = shape.upward
    assert (up.source_layer, up.target_layer, up.sideways) == ("web", "env", True)


def test_a_module_no_layer_holds_fails_the_check(tmp_path):
    shape = project_scan(monopoly_like(tmp_path, {"engine/newthing/part.py": ""}))
    assert shape.unlayered == ["monopoly.newthing", "monopoly.newthing.part"]
    assert shape.problems() == ["no layer holds monopoly.newthing", "no layer holds monopoly.newthing.part"]


def test_check_exits_1_on_a_problem_and_the_report_exits_0(tmp_path, capsys):
    good = monopoly_like(tmp_path / "good", {})
    bad = monopoly_like(tmp_path / "bad", {"engine/ruleset/model.py": "from ..game import state\n"})
    for root, expected in ((good, 0), (bad, 1)):
        packages = ["--package", f"monopoly={root / 'engine'}", "--package", f"monopoly.cli={root / 'cli'}"]
        assert main(packages) == 0
        assert main([*packages, "--check"]) == expected
        assert main([*packages, "--check", "--json"]) == expected
    out, err = capsys.readouterr()
    assert "Cycles: 1" in out and "upward import: monopoly.ruleset.model (ruleset) -> monopoly.game.state" in err


# ---------------------------------------------------------------------- sizes


def test_a_function_over_80_lines_is_listed_and_one_of_80_is_not(tmp_path):
    assert LONG_FUNCTION == 80
    shape = flat(tmp_path, {"a.py": function("eighty", 80) + function("eighty_one", 81),
                            "b.py": "class K:\n" + textwrap.indent(function("m80", 80, decorated=True)
                                                                    + function("m81", 81, decorated=True), "    ")})
    lengths = {f.name: f.lines for f in shape.functions}
    assert lengths == {"eighty": 80, "eighty_one": 81, "K.m80": 80, "K.m81": 81}
    assert [(f.module, f.name) for f in shape.long_functions()] == [("pkg.a", "eighty_one"), ("pkg.b", "K.m81")]


def test_classes_are_measured_with_their_methods(tmp_path):
    shape = flat(tmp_path, {"a.py": """\
        import attrs

        @attrs.frozen
        class Small:
            x: int

            def one(self):
                pass

            @property
            def two(self):
                def helper():
                    pass
                return 2

            class Inner:
                def three(self):
                    pass
        if True:
            class Hidden:
                async def four(self):
                    pass
        """})
    sizes = {c.name: (c.line, c.lines, c.methods) for c in shape.classes}
    assert sizes == {"Small": (3, 16, 2), "Small.Inner": (16, 3, 1), "Hidden": (20, 3, 1)}
    assert [c.name for c in shape.classes] == ["Small", "Hidden", "Small.Inner"]  # the largest first
    assert {f.name for f in shape.functions} == {"Small.one", "Small.two", "Small.two.helper", "Small.Inner.three",
                                                 "Hidden.four"}
    assert shape.modules["pkg.a"].lines == 22


def test_json_holds_the_whole_shape(tmp_path, capsys):
    root = write(tmp_path / "pkg", {"a.py": function("long", 90), "b.py": "from . import a\n"})
    assert main(["--json", "--package", f"pkg={root}"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in data["modules"]] == ["pkg", "pkg.a", "pkg.b"]
    assert [f["name"] for f in data["long_functions"]] == ["long"]
    assert data["edges"] == [{"source": "pkg.b", "target": "pkg.a", "kind": RUNTIME, "in_function": False,
                              "lines": [1]}]
    assert data["check"]["problems"] == ["no layer holds pkg", "no layer holds pkg.a", "no layer holds pkg.b"]


@pytest.mark.parametrize("bad", ["monopoly", "=engine", "monopoly="])
def test_package_option_needs_a_name_and_a_folder(bad, capsys):
    with pytest.raises(SystemExit):
        main(["--package", bad])
