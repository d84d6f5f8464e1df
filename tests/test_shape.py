"""The package's shape (issue 31), read by tests/shape.py from the ast of every module: no upward import between
the layers, every module placed in one, and no import cycle but the one still being taken apart (the game's
positions, saves, logs and replays with ``Game``): a new cycle, or that one growing, fails here."""

from __future__ import annotations

from .shape import scan

#: The modules of the one cycle left (GameState.new and Replay.new_for make a Game; the log's payments replay
#: through Replay; the answers' JSON is checked against the log's schema). When it is gone this is empty, and
#: the check is tests/shape.py --check as it stands.
KNOWN_CYCLE = frozenset({
    "monopoly.game.answers", "monopoly.game.game", "monopoly.game.log", "monopoly.game.replay", "monopoly.game.state",
})


def test_no_import_goes_up_a_layer_and_every_module_has_one():
    shape = scan()
    assert [f"{u.source} -> {u.target}" for u in shape.upward] == []
    assert shape.unlayered == []
    assert shape.unresolved == []


def test_no_import_cycle_but_the_one_of_positions_and_logs():
    shape = scan()
    others = [cycle.example for cycle in shape.cycles if not set(cycle.modules) <= KNOWN_CYCLE]
    assert others == [], others
    assert len(shape.cycles) <= 1


def test_the_driving_surface_stays_small_and_the_rules_live_in_their_modules():
    shape = scan()
    classes = {f"{c.module}.{c.name}": c for c in shape.classes}
    game = classes["monopoly.game.game.Game"]
    assert game.lines <= 400, game
    rule_modules = ("turn", "movement", "landing", "jail", "money", "building", "auction", "cards", "acting", "end")
    for name in rule_modules:
        assert f"monopoly.game.{name}" in shape.modules
        assert shape.modules[f"monopoly.game.{name}"].layer == "game"
