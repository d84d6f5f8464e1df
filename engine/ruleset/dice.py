"""The dice of a ruleset beyond their count and sides: which dice make doubles, and an extra die (the speed die).

``dice.doubles`` names the counted dice (from 1) that make doubles; ``dice.extra`` is a die thrown beside them,
whose faces are numbers (added to the move) or symbols, each symbol doing an effect of the language ``instead``
of the move or ``after`` its landing, and a ``triples`` effect for a throw where every die shows one number.
The checks here are those a schema cannot make (a doubles rule naming a die that does not exist, a symbol
without an effect); the effect texts are checked with the others (``semantics._check_effects``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from ..suggest import closest
from .problems import Problem

if TYPE_CHECKING:
    from .compose import Composed

#: When a symbol's effect happens: in place of the move by the dice, or after the move and its landing.
TIMINGS = ("instead", "after")


@attrs.frozen
class Symbol:
    """What a symbol face of the extra die does: ``effect`` (its text ``text``) ``instead`` of the move or
    ``after`` it (``timing``)."""

    face: str
    timing: str
    text: str
    effect: Any = attrs.field(eq=False, repr=False)


@attrs.frozen
class ExtraDie:
    """A die thrown beside the counted dice, when ``when`` holds for the roller (always when None)."""

    faces: tuple[int | str, ...]
    when_text: str | None
    when: Any = attrs.field(eq=False, repr=False)
    symbols: tuple[Symbol, ...]
    triples_text: str | None
    triples: Any = attrs.field(eq=False, repr=False)

    def symbol(self, face: str) -> Symbol | None:
        return next((s for s in self.symbols if s.face == face), None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"faces": list(self.faces)}
        if self.when_text is not None:
            data["when"] = self.when_text
        if self.symbols:
            data["symbols"] = {s.face: {s.timing: s.text} for s in self.symbols}
        if self.triples_text is not None:
            data["triples"] = self.triples_text
        return data


def symbols_of(dice: dict[str, Any]) -> frozenset[str]:
    """The symbol faces of the extra die (none without one)."""
    extra = dice.get("extra") or {}
    return frozenset(face for face in extra.get("faces", ()) if isinstance(face, str))


def dice_thrown(dice: dict[str, Any]) -> int:
    """How many dice a throw may hold: the counted dice, and the extra die."""
    return int(dice["count"]) + (1 if "extra" in dice else 0)


def effect_places(dice: dict[str, Any]) -> list[tuple[tuple[Any, ...], str, str]]:
    """The effect texts of the dice: (place, text, "condition" or "trigger")."""
    extra = dice.get("extra")
    if not extra:
        return []
    places: list[tuple[tuple[Any, ...], str, str]] = []
    if "when" in extra:
        places.append((("dice", "extra", "when"), extra["when"], "condition"))
    for face, does in extra.get("symbols", {}).items():
        for timing, text in does.items():
            places.append((("dice", "extra", "symbols", face, timing), text, "trigger"))
    if "triples" in extra:
        places.append((("dice", "extra", "triples"), extra["triples"], "trigger"))
    return places


def check_dice(composed: Composed, dice: dict[str, Any], problems: list[Problem]) -> None:
    """A doubles rule naming a die that does not exist; a symbol without an effect, or an effect for a face the
    die does not have."""
    count = dice["count"]
    for index, number in enumerate(dice.get("doubles", ())):
        if number > count:
            problems.append(composed.problem(
                ("dice", "doubles", index), "unknown-die",
                f"die {number} does not exist: the ruleset counts {count} dice",
                f"doubles name the counted dice, 1 to {count} (an extra die never makes doubles)"))
    extra = dice.get("extra")
    if not extra:
        return
    symbols = symbols_of(dice)
    given = extra.get("symbols", {})
    for face in sorted(symbols - set(given)):
        index = list(extra["faces"]).index(face)
        problems.append(composed.problem(
            ("dice", "extra", "faces", index), "symbol-without-effect",
            f'the face "{face}" of the extra die does nothing',
            f'say what it does under dice.extra.symbols: {face}: {{instead: EFFECT}} or {{after: EFFECT}}'))
    for face in given:
        if face not in symbols:
            match = closest(face, sorted(symbols))
            problems.append(composed.problem(
                ("dice", "extra", "symbols", face), "unknown-face",
                f'the extra die has no face "{face}"',
                f'did you mean "{match}"?' if match else "add it to dice.extra.faces, or remove it", key=True))


def build_dice(dice: dict[str, Any], effects: dict[tuple[Any, ...], Any]) -> tuple[tuple[int, ...] | None,
                                                                                   ExtraDie | None]:
    """The doubles rule (None: every counted die) and the extra die (None: none) of a checked tree."""
    doubles = tuple(dice["doubles"]) if "doubles" in dice else None
    extra = dice.get("extra")
    if not extra:
        return doubles, None
    symbols = tuple(Symbol(face, timing, text, effects.get(("dice", "extra", "symbols", face, timing)))
                    for face, does in extra.get("symbols", {}).items() for timing, text in does.items())
    return doubles, ExtraDie(tuple(extra["faces"]), extra.get("when"), effects.get(("dice", "extra", "when")),
                             symbols, extra.get("triples"), effects.get(("dice", "extra", "triples")))
