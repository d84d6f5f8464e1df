"""What the optional compiled build (mypyc, see docs/performance.md) needs to know of a class.

``mypyc_attr`` marks a class that must stay a plain Python class when the package is compiled (one that
inherits from a class written in C, such as ``random.Random``; one whose instances are built field by
field) or that users may subclass. Without mypy installed it is a decorator that changes nothing, so the
pure-Python package needs nothing more than it did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure-Python package: the marks change nothing

        def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:
            return lambda cls: cls


#: The modules the compiled build compiles, as paths inside the package: the turn loop, the rules it runs and
#: the bots. The rest (loading rulesets, the effect language's parser, the JSON, log and save readers, the CLI)
#: runs once a game or less, and stays Python; so do the position (state.py) and the replay (replay.py), Python
#: classes over the compiled ``Fields`` that hold anything a file gave until it is checked. setup.py reads this
#: list.
COMPILED = (
    "game/acting.py", "game/actions.py", "game/apply.py", "game/auction.py", "game/building.py", "game/cards.py",
    "game/core.py", "game/decisions.py", "game/dice.py", "game/end.py", "game/events.py", "game/fields.py",
    "game/game.py", "game/host.py", "game/jail.py", "game/landing.py", "game/money.py", "game/movement.py",
    "game/question.py", "game/rent.py", "game/start.py", "game/stock.py", "game/tables.py", "game/turn.py",
    "agents/base.py", "agents/bots.py",
)


__all__ = ["COMPILED", "mypyc_attr"]
