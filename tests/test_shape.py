"""The package's shape (issue 31), read by tests/shape.py from the ast of every module: every module placed in a
layer, no import up a layer and no import cycle anywhere, type-only imports included (what ``python
tests/shape.py --check`` checks)."""

from __future__ import annotations

from .shape import main, scan


def test_no_import_goes_up_a_layer_and_every_module_has_one():
    shape = scan()
    assert [f"{u.source} -> {u.target}" for u in shape.upward] == []
    assert shape.unlayered == []
    assert shape.unresolved == []


def test_no_import_cycle():
    shape = scan()
    assert [cycle.example for cycle in shape.cycles] == []


def test_the_check_passes(capsys):
    assert main(["--check"]) == 0, capsys.readouterr().out


def test_the_driving_surface_stays_small_and_the_rules_live_in_their_modules():
    shape = scan()
    classes = {f"{c.module}.{c.name}": c for c in shape.classes}
    game = classes["monopoly.game.game.Game"]
    assert game.lines <= 400, game
    rule_modules = ("turn", "movement", "landing", "jail", "money", "building", "auction", "cards", "acting", "end")
    for name in rule_modules:
        assert f"monopoly.game.{name}" in shape.modules
        assert shape.modules[f"monopoly.game.{name}"].layer == "game"
