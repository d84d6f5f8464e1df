"""Find ruleset files, follow ``extends``, apply variants: many files -> one tree.

The result is plain data plus an *origin* for every place in it: which file
and which place in that file wrote it. Later checks use the origins to report
problems at the line the designer wrote, even after several files were layered.

Layering rules (documented in docs/ruleset-reference.md):

* mappings merge key by key; lists and scalars replace;
* ``spaces:`` patches existing spaces found by their current name;
* a deck's ``remove``, ``change`` and ``add`` patch the cards underneath, found
  by their printed text (``cards:`` still replaces the whole list);
* ``triggers`` are appended; given as a mapping, ``remove``, ``change`` and
  ``add`` patch the triggers underneath, found by their ``name``;
* variants apply in the order given; two variants that set the same place to
  different values, or patch the same card or trigger in ways that disagree, are
  an error naming both files and lines.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import os
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path as FsPath
from typing import Any

import attrs

from ..suggest import MAX_SUGGEST_LENGTH, closest
from .load import MAX_BYTES, Document, Path, display_path, load_bytes, read_regular_file
from .problems import Problem, RulesetError, brief
from .schema import check_document, suggest

MAX_EXTENDS = 8
#: Variants applied at once (the six shipped ones all combine well below this).
MAX_VARIANTS = 16
#: All the files of one ruleset together (an edition, what it extends, its variants).
MAX_TOTAL_BYTES = 2 * 1024 * 1024
DEFAULT_BASE = "classic"
#: Cards one deck may hold once every file is applied: as many as one ``cards:`` list may give.
MAX_CARDS = 200
# Keys that describe a file rather than the game; they never layer.
_META = ("id", "kind", "extends", "name", "description")
# The keys that patch a list instead of replacing it, in the order they apply.
_PATCHES = ("remove", "change", "add")


class RulesetNotFound(LookupError):
    """A name or path that is neither a file nor a built-in ruleset (a usage error)."""

    def __init__(self, name: str, hint: str | None, *, message: str | None = None):
        self.name = brief(name, 200)
        self.hint = hint
        self.message = message or f"no ruleset file or built-in ruleset named '{self.name}'"
        super().__init__(self.message + (f" ({hint})" if hint else ""))


#: The endings a ruleset file must have: nothing else is read as a ruleset.
RULESET_SUFFIXES = (".yaml", ".yml")
_MAX_PATH = 4096
_MAX_PATH_PART = 255


@attrs.frozen
class Builtin:
    """A ruleset shipped with the package."""

    id: str
    kind: str  # "edition" or "variant"
    path: FsPath


def builtin_rulesets() -> list[Builtin]:
    """The shipped editions and variants, editions first, each sorted by id."""
    root = resources.files("monopoly.rulesets")
    found = []
    for kind, folder in (("edition", root), ("variant", root.joinpath("variants"))):
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".yaml"):
                found.append(Builtin(entry.name[: -len(".yaml")], kind, FsPath(str(entry))))
    return found


def is_builtin_name(text: str) -> bool:
    """Whether ``text`` names a built-in ruleset rather than a file: no folder separator and no ``.yaml``/``.yml``
    ending (docs/security.md). The one home of that rule, for the finder and for what a save records."""
    return not ("/" in text or os.sep in text or text.lower().endswith(RULESET_SUFFIXES))


def find_ruleset(name_or_path: str | os.PathLike[str], *, relative_to: FsPath | None = None,
                 kind: str | None = None) -> FsPath:
    """The file for a path or a built-in name; :class:`RulesetNotFound` if neither exists.

    The same rule holds wherever the name comes from: the command line, an
    ``extends:`` key, a save or a log (docs/security.md). A name without a
    folder separator or a ``.yaml``/``.yml`` ending is a built-in ruleset of
    ``kind`` (any kind when None), never a file. Anything else is a path, which
    must end in ``.yaml`` or ``.yml`` and name a regular file; a relative path is
    taken from ``relative_to`` when given (the folder of the file that wrote
    ``extends``). Absolute paths and ``..`` are allowed: a path can reach any
    ``.yaml`` file the user can read, and the loader shows nothing of a file
    that is not a ruleset.
    """
    text = os.fspath(name_or_path)
    builtins = [b for b in builtin_rulesets() if kind is None or b.kind == kind]
    if is_builtin_name(text):
        for builtin in builtins:
            if builtin.id == text:
                return builtin.path
        hint = suggest(text, [b.id for b in builtins]) if len(text) <= 100 else None
        if hint is None:
            hint = "built-in: " + ", ".join(b.id for b in builtins) + "; a file's path ends in .yaml or .yml"
        raise RulesetNotFound(text, hint)
    if len(text) > _MAX_PATH or any(len(part) > _MAX_PATH_PART for part in text.replace(os.sep, "/").split("/")):
        raise RulesetNotFound(text, "the path is too long")
    if "\x00" in text:
        raise RulesetNotFound(text, "the path holds a NUL character")
    if not text.lower().endswith(RULESET_SUFFIXES):
        raise RulesetNotFound(text, "only .yaml and .yml files are read as rulesets")
    candidate = FsPath(text)
    if relative_to is not None and not candidate.is_absolute():
        candidate = relative_to / candidate
    try:
        if candidate.is_file():
            return candidate
        exists = candidate.exists()
    except OSError as exc:
        raise RulesetNotFound(text, exc.strerror or "it cannot be read") from None
    raise RulesetNotFound(text, "not a regular file" if exists else "no such file")


@attrs.define
class Composed:
    """One layered ruleset tree, before semantic checks.

    ``origins`` maps a place in ``data`` to the document and place that wrote
    it; a place not in it takes the origin of its nearest recorded ancestor.
    """

    data: dict[str, Any]
    origins: dict[Path, tuple[Document, Path]]
    documents: list[Document]
    variants: list[str]
    #: former space name -> (new name, file:line:col of the rename)
    renamed: dict[str, tuple[str, str]] = attrs.Factory(dict)

    def origin(self, path: Path) -> tuple[Document, Path]:
        probe = tuple(path)
        while probe not in self.origins:
            probe = probe[:-1]
        doc, where = self.origins[probe]
        return doc, where + tuple(path[len(probe):])

    def problem(self, path: Path, code: str, message: str, hint: str | None = None, *,
                key: bool = False, severity: str = "error") -> Problem:
        doc, where = self.origin(path)
        return doc.problem(where, code, message, hint, key=key, severity=severity)


def compose(name_or_path: str | os.PathLike[str], variants: Sequence[str | os.PathLike[str]] = (), *,
            max_problems: int | None = None) -> Composed:
    """Load an edition (or a variant, applied to classic) and layer the variants on it.

    Raises :class:`RulesetError` with every problem found (the schema problems
    of one file explained up to ``max_problems``, the rest counted), and
    :class:`RulesetNotFound` for a name or path that does not exist.
    """
    problems: list[Problem] = []
    limit = max_problems
    names = [os.fspath(v) for v in variants]
    if len(names) > MAX_VARIANTS:
        raise RulesetNotFound(f"{len(names)} variants", None,
                              message=f"{len(names)} variants: at most {MAX_VARIANTS} are applied at once")
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise RulesetNotFound(twice, None, message=f"the variant '{brief(twice, 200)}' is given twice")
    read = [0]

    main_path = find_ruleset(name_or_path)
    main = _load_and_check(main_path, problems, limit, read)
    variant_docs: list[Document] = []
    if main.data.get("kind") == "variant":
        variant_docs.append(main)
        base_path = find_ruleset(DEFAULT_BASE, kind="edition")
        chain = _extends_chain(_load_and_check(base_path, problems, limit, read), base_path, problems, limit, read)
    else:
        chain = _extends_chain(main, main_path, problems, limit, read)
    for name in variants:
        path = find_ruleset(name, kind="variant")
        doc = _load_and_check(path, problems, limit, read)
        if doc.data.get("kind") != "variant":
            problems.append(doc.problem(("kind",), "not-a-variant",
                                        f"{doc.file} is an edition, not a variant",
                                        "a variant file has `kind: variant`; to build on an edition use `extends`",
                                        key=True))
            continue
        variant_docs.append(doc)
    _raise_errors(problems)

    base = chain[0]
    composed = Composed(copy.deepcopy(base.data), {(): (base, ())}, list(chain), [])
    composed.data.pop("extends", None)
    composed.data.pop("kind", None)
    _apply_bottom(composed, base, problems)
    for under, overlay in itertools.pairwise(chain):
        _apply(composed, _Layer(overlay, _called(under), None, None), problems)
    composed.documents.extend(variant_docs)
    assigned: dict[Path, tuple[Document, Path, Any]] = {}
    claims: dict[tuple[Any, ...], _Claim] = {}
    for doc in variant_docs:
        variant_id = doc.data["id"]
        if variant_id in composed.variants:
            problems.append(doc.problem(("id",), "variant-twice", f"variant '{variant_id}' is applied twice"))
            continue
        below = _called(chain[-1])
        if composed.variants:
            below += " with the variant" + ("s " if len(composed.variants) > 1 else " ") + ", ".join(
                f"'{v}'" for v in composed.variants)
        composed.variants.append(variant_id)
        _apply(composed, _Layer(doc, below, assigned, claims), problems)
    _raise_errors(problems)
    return composed


def _raise_errors(problems: list[Problem]) -> None:
    if any(p.severity == "error" for p in problems):
        raise RulesetError(problems)


def _load_and_check(path: FsPath, problems: list[Problem], limit: int | None, read: list[int]) -> Document:
    """Load and schema-check one file; ``read`` counts the bytes of the files loaded so far (one element)."""
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    read[0] += size
    if read[0] > MAX_TOTAL_BYTES:
        raise RulesetError(problems + [Problem(display_path(path), 1, 1, "too-large",
                                               f"the files of this ruleset hold more than {MAX_TOTAL_BYTES // 1024} "
                                               "KiB together", "a ruleset and all it builds on is a few dozen KiB")])
    name = display_path(path)
    raw = read_regular_file(path, MAX_BYTES, name)
    key = (name, hashlib.sha256(raw).digest())
    doc = _CHECKED.get(key)
    if doc is not None:
        return doc
    doc = load_bytes(raw, name)
    schema_problems = check_document(doc, limit)
    if schema_problems:
        problems.extend(schema_problems)
        raise RulesetError(problems)
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.pop(next(iter(_CHECKED)))
    _CHECKED[key] = doc
    return doc


#: Files read and found to match the schema, by their name and the SHA-256 of their bytes: the same bytes are
#: not parsed and checked again in one process (loading a ruleset and its variants again, as `compare` and the
#: tests do). Documents are never changed once read. At most this many, the oldest dropped first.
_CHECKED: dict[tuple[str, bytes], Document] = {}
_CHECKED_MAX = 32


def _extends_chain(doc: Document, path: FsPath, problems: list[Problem], limit: int | None,
                   read: list[int]) -> list[Document]:
    """[base, ..., doc]: the editions ``doc`` builds on, the root first."""
    chain = [doc]
    seen = {path.resolve()}
    current, current_path = doc, path
    while "extends" in current.data:
        name = current.data["extends"]
        try:
            parent_path = find_ruleset(name, relative_to=current_path.parent, kind="edition")
        except RulesetNotFound as exc:
            problems.append(current.problem(("extends",), "unknown-extends",
                                            f"cannot find the edition '{exc.name}' to extend", exc.hint))
            raise RulesetError(problems) from None
        if parent_path.resolve() in seen or len(chain) > MAX_EXTENDS:
            problems.append(current.problem(("extends",), "extends-cycle",
                                            f"'extends: {brief(str(name), 200)}' leads back to a file already extended"
                                            if parent_path.resolve() in seen else
                                            f"more than {MAX_EXTENDS} editions extend each other"))
            raise RulesetError(problems)
        seen.add(parent_path.resolve())
        parent = _load_and_check(parent_path, problems, limit, read)
        if parent.data.get("kind") == "variant":
            problems.append(current.problem(("extends",), "extends-variant",
                                            f"'{brief(str(name), 200)}' is a variant; an edition can only "
                                            "extend an edition",
                                            "apply a variant with --variant instead"))
            raise RulesetError(problems)
        chain.insert(0, parent)
        current, current_path = parent, parent_path
    return chain


@attrs.frozen
class _Layer:
    """One file being applied: what it changes, for messages, and for a variant what the variants before it did."""

    doc: Document
    #: "classic (rulesets/classic.yaml)"; None for the edition at the bottom, which changes nothing
    below: str | None
    #: place in the tree -> (variant, place in it, value) of every value the variants before set
    assigned: dict[Path, tuple[Document, Path, Any]] | None
    #: what the variants before did to each card and trigger (None while editions are layered)
    claims: dict[tuple[Any, ...], _Claim] | None


@attrs.frozen
class _Claim:
    """What a variant did to one card or trigger: ``add``, ``remove`` or ``rename`` it, or change one key."""

    doc: Document
    where: Path
    action: str
    value: Any = None


def _called(doc: Document) -> str:
    """How a message names an edition: its id and its file."""
    return f"{doc.data['id']} ({doc.file})"


def _apply_bottom(composed: Composed, doc: Document, problems: list[Problem]) -> None:
    """The decks, triggers and spaces of the edition at the bottom, which has nothing beneath it to patch."""
    layer = _Layer(doc, None, None, None)
    for name in doc.data.get("spaces", {}):
        problems.append(doc.problem(("spaces", name), "unknown-space",
                                    f'no space named "{brief(name, 80)}" to change: this edition extends no other',
                                    "`spaces:` changes the spaces of the edition named in `extends`; write this "
                                    "edition's spaces in `board:`", key=True))
    composed.data.pop("spaces", None)
    if "decks" in composed.data:
        composed.data["decks"] = {}  # emptied in place, so the keys keep their order
        _apply_decks(composed, layer, doc.data["decks"], problems)
    if "triggers" in composed.data:
        composed.data["triggers"] = []
        _apply_triggers(composed, layer, doc.data["triggers"], problems)


def _apply(composed: Composed, layer: _Layer, problems: list[Problem]) -> None:
    """Layer one document (an extending edition or a variant) onto ``composed``."""
    doc, assigned = layer.doc, layer.assigned
    data = doc.data
    if assigned is None:  # an edition that extends another: its own name and id win
        for key in ("id", "name", "description"):
            if key in data:
                _set(composed, (key,), data[key], doc, (key,), problems, None)
    for key, value in data.items():
        if key in _META:
            continue
        if key == "spaces":
            _patch_spaces(composed, layer, value, problems)
        elif key == "triggers":
            _apply_triggers(composed, layer, value, problems)
        elif key == "decks":
            _apply_decks(composed, layer, value, problems)
        else:
            _merge(composed, (key,), value, doc, (key,), problems, assigned)


def _merge(composed: Composed, path: Path, value: Any, doc: Document, where: Path,
           problems: list[Problem], assigned: dict[Path, tuple[Document, Path, Any]] | None) -> None:
    current = _get(composed.data, path)
    if isinstance(value, dict) and value and current is None and assigned is not None:
        # a mapping the layers beneath lack (a variant's `permissions:`): made empty, then set key by key, so
        # that two variants setting one key differently are told apart from two setting different keys
        _set(composed, path, {}, doc, where, problems, None)
        current = {}
    if isinstance(value, dict) and isinstance(current, dict):
        for key, item in value.items():
            _merge(composed, path + (key,), item, doc, where + (key,), problems, assigned)
    else:
        _set(composed, path, value, doc, where, problems, assigned)


def _set(composed: Composed, path: Path, value: Any, doc: Document, where: Path,
         problems: list[Problem], assigned: dict[Path, tuple[Document, Path, Any]] | None) -> None:
    if assigned is not None:
        earlier = assigned.get(path)
        if earlier is not None and earlier[0] is not doc and earlier[2] != value:
            other_doc, other_where, other_value = earlier
            mark = other_doc.mark(other_where)
            problems.append(doc.problem(
                where, "variant-conflict",
                f"variants '{other_doc.data['id']}' and '{doc.data['id']}' set {_dotted(path, composed)} differently",
                f"{other_doc.file}:{mark.line}:{mark.column} sets it to {_brief(other_value)}, this file to "
                f"{_brief(value)}; use only one of these variants"))
            return
        assigned[path] = (doc, where, value)
    parent = composed.data
    for part in path[:-1]:
        if isinstance(parent, dict):
            parent = parent.setdefault(part, {})
        else:
            parent = parent[part]
    parent[path[-1]] = copy.deepcopy(value)
    prefix_len = len(path)
    for stale in [p for p in composed.origins if len(p) > prefix_len and p[:prefix_len] == path]:
        del composed.origins[stale]
    composed.origins[path] = (doc, where)


def _patch_spaces(composed: Composed, layer: _Layer, patches: dict[str, Any], problems: list[Problem]) -> None:
    doc = layer.doc
    board = composed.data.get("board", [])
    names = [space.get("name") for space in board]
    for name, patch in patches.items():
        indexes = [i for i, space_name in enumerate(names) if space_name == name]
        if not indexes:
            renamed = composed.renamed.get(name)
            hint = (f'"{brief(name, 80)}" was renamed to "{brief(renamed[0], 80)}" at {renamed[1]}' if renamed else
                    suggest(name, dict.fromkeys(n for n in names if isinstance(n, str)), quote='"'))
            problems.append(doc.problem(("spaces", name), "unknown-space",
                                        f'no space named "{brief(name, 80)}" on the board of {layer.below}', hint,
                                        key=True))
            continue
        if "name" in patch and patch["name"] != name:
            mark = doc.mark(("spaces", name), key=True)
            composed.renamed[name] = (patch["name"], f"{doc.file}:{mark.line}:{mark.column}")
        for index in indexes:
            for key, value in patch.items():
                _set(composed, ("board", index, key), value, doc, ("spaces", name, key), problems, layer.assigned)


@attrs.frozen
class _Items:
    """A list that files patch item by item: a deck's cards, found by their text, or the triggers, by name."""

    path: Path  # ("decks", "chance", "cards") or ("triggers",)
    key: str  # "text" or "name"
    claim: tuple[Any, ...]  # ("card", "chance") or ("trigger",): how the claims on its items start
    limit: int | None  # most items the list may hold

    @property
    def deck(self) -> str | None:
        return self.path[1] if self.key == "text" else None

    def what(self, name: Any) -> str:
        if self.deck is not None:
            return f'the card "{brief(str(name), 80)}" of deck \'{self.deck}\''
        return f"the trigger '{brief(str(name), 80)}'"


def _apply_decks(composed: Composed, layer: _Layer, decks: dict[str, Any], problems: list[Problem]) -> None:
    """Add, replace or patch each deck a file gives."""
    doc = layer.doc
    have = composed.data.get("decks", {})
    for key, deck in decks.items():
        here = ("decks", key)
        patch = {k: v for k, v in deck.items() if k in _PATCHES}
        rest = {k: v for k, v in deck.items() if k not in _PATCHES}
        if patch and "cards" in rest:
            first = next(iter(patch))
            problems.append(doc.problem(here + (first,), "cards-and-patch",
                                        f"deck '{key}' gives both `cards:`, which replaces the whole deck, and "
                                        f"`{first}:`, which patches the deck underneath",
                                        "list every card under `cards:`, or change the deck underneath with "
                                        "`remove:`, `change:` and `add:`, not both", key=True))
            continue
        if key not in have:
            if patch:
                message = (f"no deck named '{key}' in {layer.below}" if layer.below is not None else
                           f"deck '{key}' has no cards to patch: this edition extends no other")
                hint = (suggest(key, have) or ("its decks: " + ", ".join(have) if have else None)
                        if layer.below is not None else "list the deck's cards under `cards:`")
                problems.append(doc.problem(here, "unknown-deck", message, hint, key=True))
                continue
            if "cards" not in rest:
                problems.append(doc.problem(here, "missing-key", f"missing required key 'cards' in decks.{key}",
                                            "a new deck lists its cards under `cards:`; `remove:`, `change:` and "
                                            "`add:` patch a deck that the edition underneath has", key=True))
                continue
        if "cards" in rest and layer.claims is not None:
            earlier = layer.claims.get(("deck", key))
            if earlier is not None and earlier.doc is not doc:
                mark = earlier.doc.mark(earlier.where, key=True)
                problems.append(doc.problem(
                    here + ("cards",), "variant-conflict",
                    f"variants '{earlier.doc.data['id']}' and '{doc.data['id']}' both change deck '{key}'",
                    f"{earlier.doc.file}:{mark.line}:{mark.column} patches its cards, and this file's `cards:` "
                    f"replace the whole deck and drop those changes; use only one of these variants, or apply "
                    f"'{doc.data['id']}' first", key=True))
                continue
        if rest:
            _merge(composed, here, rest, doc, here, problems, layer.assigned)
        if patch:
            items = _Items(here + ("cards",), "text", ("card", key), MAX_CARDS)
            _patch_items(composed, layer, items, patch, here, here + ("add",), problems)
            if layer.claims is not None:
                layer.claims.setdefault(("deck", key), _Claim(doc, here + (next(iter(patch)),), "patch"))


def _apply_triggers(composed: Composed, layer: _Layer, triggers: list[Any] | dict[str, Any],
                    problems: list[Problem]) -> None:
    """A list of triggers is added to those underneath; a mapping patches them by name."""
    items = _Items(("triggers",), "name", ("trigger",), None)
    composed.data.setdefault("triggers", [])
    if isinstance(triggers, list):
        _patch_items(composed, layer, items, {"add": triggers}, ("triggers",), ("triggers",), problems)
    else:
        _patch_items(composed, layer, items, triggers, ("triggers",), ("triggers", "add"), problems)


def _patch_items(composed: Composed, layer: _Layer, items: _Items, patch: dict[str, Any], where: Path,
                 add_where: Path, problems: list[Problem]) -> None:
    """Apply one file's ``remove``, then ``change``, then ``add`` (at ``add_where``) to a list of the tree.

    ``remove`` and ``change`` name items of the list underneath; every item with that name is removed or
    changed (as ``spaces:`` changes every space of a name). ``add`` puts new items at the end; an item
    whose name the list already has is an error, so that a patch never makes two items share a name.
    """
    current = _get(composed.data, items.path)
    values: list[Any] = list(current) if isinstance(current, list) else []
    patching = _ListPatch(composed, layer, items, values, _take_origins(composed, items.path, len(values)), problems)
    emptied_at = patching.remove(patch.get("remove", ()), where)
    patching.change(patch.get("change", {}), where)
    patching.add(patch.get("add", ()), add_where)
    if items.limit is not None and not patching.values and emptied_at is not None:
        problems.append(layer.doc.problem(emptied_at, "empty-deck",
                                          f"removing this card leaves deck '{items.deck}' with no cards",
                                          "a deck needs at least one card: keep one, or add one with `add:`"))
    _put(composed, items.path, patching.values, patching.origins)


@attrs.define
class _ListPatch:
    """One file's patch of a list under way: its items so far, where each of their fields was set, the problems."""

    composed: Composed
    layer: _Layer
    items: _Items
    values: list[Any]
    origins: list[dict[Path, tuple[Document, Path]]]
    problems: list[Problem]
    named: set[Any] = attrs.Factory(set)  # the items named under `remove:` and `change:` so far

    def _found(self, name: Any) -> list[int]:
        """The places of the items of this name."""
        return [i for i, value in enumerate(self.values) if value.get(self.items.key) == name]

    def remove(self, names: Iterable[Any], where: Path) -> Path | None:
        """Take out every item of each name under `remove:`; where the last one taken out is named (None: none)."""
        doc, claims, items = self.layer.doc, self.layer.claims, self.items
        emptied_at: Path | None = None
        for index, name in enumerate(names):
            at = where + ("remove", index)
            if name in self.named:
                self.problems.append(doc.problem(at, "patch-twice", f"{items.what(name)} is named twice under "
                                                 "`remove:`"))
                continue
            self.named.add(name)
            found = self._found(name)
            if not found:
                _missing(self.composed, self.layer, items, name, at, "removes", self.values, self.problems)
                continue
            problem = _disputed(self.layer, items, name, at, "removes")
            if problem is not None:
                self.problems.append(problem)
                continue
            self.values = [v for i, v in enumerate(self.values) if i not in found]
            self.origins = [o for i, o in enumerate(self.origins) if i not in found]
            emptied_at = at
            if claims is not None:
                claims[items.claim + (name,)] = _Claim(doc, at, "remove")
        return emptied_at

    def change(self, changes: dict[str, Any], where: Path) -> None:
        """Change the fields of every item of each name under `change:` (a new `text` or `name` renames it)."""
        doc, claims, items = self.layer.doc, self.layer.claims, self.items
        for name, change in changes.items():
            at = where + ("change", name)
            if name in self.named:
                self.problems.append(doc.problem(at, "patch-twice",
                                                 f"this file both removes and changes {items.what(name)}",
                                                 "a removed item cannot be changed: keep one of the two", key=True))
                continue
            self.named.add(name)
            found = self._found(name)
            if not found:
                _missing(self.composed, self.layer, items, name, at, "changes", self.values, self.problems)
                continue
            new_name = change.get(items.key, name)
            clash = [i for i in self._found(new_name) if i not in found]
            if clash:
                self.problems.append(_duplicate(items, new_name, doc, at + (items.key,), self.origins[clash[0]][()]))
                continue
            disputes = [p for field, value in change.items() if (p := _disputed(self.layer, items, name, at + (field,),
                                                                                "changes", field, value)) is not None]
            if disputes:
                self.problems.extend(disputes)
                continue
            for i in found:
                self.values[i] = {**self.values[i], **copy.deepcopy(change)}
                self.origins[i].update({(field,): (doc, at + (field,)) for field in change})
            if claims is not None:
                # under the new name too, so that a later variant changing the renamed item meets these changes
                for known in {name, new_name}:
                    claims.update({items.claim + (known, field): _Claim(doc, at + (field,), "change", value)
                                   for field, value in change.items() if field != items.key or known == name})
                if new_name != name:
                    claims[items.claim + (name,)] = _Claim(doc, at + (items.key,), "rename", new_name)

    def add(self, new_items: Iterable[Any], add_where: Path) -> None:
        """Put each item under `add:` at the end, unless the list has one of its name or a deck would be too long."""
        doc, claims, items = self.layer.doc, self.layer.claims, self.items
        for index, item in enumerate(new_items):
            at = add_where + (index,)
            name = item.get(items.key)
            earlier = claims.get(items.claim + (name,)) if claims is not None and name is not None else None
            if earlier is not None and earlier.doc is doc:
                earlier = None  # this file's own doing: reported as a duplicate or done
            found = self._found(name) if name is not None else []
            if found:
                if earlier is not None and earlier.action == "add" and earlier.value == item:
                    continue  # two variants add the same item: it is there once
                if earlier is not None and earlier.action == "add":
                    self.problems.append(_conflict(items, earlier, doc, at, name, "adds one", "adds another",
                                                   f"variants '{earlier.doc.data['id']}' and '{doc.data['id']}' "
                                                   f"both add {items.what(name)}, differently"))
                else:
                    self.problems.append(_duplicate(items, name, doc, at, self.origins[found[0]][()]))
                continue
            if earlier is not None and earlier.action == "remove":
                self.problems.append(_conflict(items, earlier, doc, at, name, "removes it", "adds it"))
                continue
            if items.limit is not None and len(self.values) >= items.limit:
                self.problems.append(doc.problem(at, "too-many-cards", f"deck '{items.deck}' would hold more than "
                                                 f"{items.limit} cards", "a deck holds at most 200; use `count` for "
                                                 "copies"))
                break
            self.values.append(copy.deepcopy(item))
            self.origins.append({(): (doc, at)})
            if claims is not None and name is not None:
                claims[items.claim + (name,)] = _Claim(doc, at, "add", item)


def _missing(composed: Composed, layer: _Layer, items: _Items, name: Any, at: Path, verb: str,
             values: list[Any], problems: list[Problem]) -> None:
    """The problem of a patch whose item is not in the list: a conflict when a variant before took it away."""
    doc = layer.doc
    earlier = layer.claims.get(items.claim + (name,)) if layer.claims is not None else None
    if earlier is not None and earlier.doc is not doc and earlier.action in ("remove", "rename"):
        if earlier.action == "remove" and verb == "removes":
            return  # both variants take it out
        did = "removes it" if earlier.action == "remove" else f"renames it to {_brief(earlier.value)}"
        problems.append(_conflict(items, earlier, doc, at, name, did, f"{verb} it", key=verb == "changes"))
        return
    names = [v.get(items.key) for v in values if isinstance(v.get(items.key), str)]
    hint = _suggest_text(str(name), names, '"' if items.deck is not None else "'")
    if items.deck is not None:
        message = f'no card "{brief(str(name), 80)}" in deck \'{items.deck}\' of {layer.below}'
        if hint is None:
            listed_doc, listed_where = composed.origin(items.path)
            mark = listed_doc.mark(listed_where)
            hint = f"the deck's cards are listed at {listed_doc.file}:{mark.line}:{mark.column}"
    else:
        message = (f"no trigger named '{brief(str(name), 80)}' in {layer.below}" if layer.below is not None else
                   f"no trigger named '{brief(str(name), 80)}' to {verb[:-1]}: this edition extends no other")
        if hint is None and layer.below is not None:
            hint = ("its triggers are named " + ", ".join(f"'{n}'" for n in names) if names else
                    "none of its triggers has a name; a trigger is changed or removed by its `name`")
    code = "unknown-card" if items.deck is not None else "unknown-trigger"
    problems.append(doc.problem(at, code, message, hint, key=verb == "changes"))


def _disputed(layer: _Layer, items: _Items, name: Any, at: Path, verb: str, field: str | None = None,
              value: Any = None) -> Problem | None:
    """A conflict when a variant before added or changed this item and this one removes it, or changes the same
    key to another value."""
    if layer.claims is None:
        return None
    doc = layer.doc
    if field is not None:
        earlier = layer.claims.get(items.claim + (name, field))
        if earlier is None or earlier.doc is doc or earlier.value == value:
            return None
        mark = earlier.doc.mark(earlier.where)
        return doc.problem(at, "variant-conflict",
                           f"variants '{earlier.doc.data['id']}' and '{doc.data['id']}' change the {field} of "
                           f"{items.what(name)} differently",
                           f"{earlier.doc.file}:{mark.line}:{mark.column} sets it to {_brief(earlier.value)}, this "
                           f"file to {_brief(value)}; use only one of these variants")
    for key, earlier in layer.claims.items():
        if key[:len(items.claim) + 1] != items.claim + (name,) or earlier.doc is doc:
            continue
        if earlier.action in ("add", "change"):  # a removal or a rename was of an item now gone
            did = "adds it" if earlier.action == "add" else f"changes its {key[-1]}"
            return _conflict(items, earlier, doc, at, name, did, f"{verb} it")
    return None


def _conflict(items: _Items, earlier: _Claim, doc: Document, at: Path, name: Any, did: str, does: str,
              message: str | None = None, *, key: bool = False) -> Problem:
    mark = earlier.doc.mark(earlier.where)
    return doc.problem(at, "variant-conflict",
                       message or f"variants '{earlier.doc.data['id']}' and '{doc.data['id']}' both patch "
                       f"{items.what(name)}",
                       f"{earlier.doc.file}:{mark.line}:{mark.column} {did}, this file {does}; use only one of these "
                       "variants", key=key)


def _duplicate(items: _Items, name: Any, doc: Document, at: Path, there: tuple[Document, Path]) -> Problem:
    """An item added (or renamed) to a name the list already has."""
    mark = there[0].mark(there[1])
    if items.deck is not None:
        return doc.problem(at, "duplicate-card", f'deck \'{items.deck}\' already has a card "{brief(str(name), 80)}"',
                           f"it is written at {there[0].file}:{mark.line}:{mark.column}; for more copies of it, "
                           "change its `count` under `change:`, or give this card its own text")
    return doc.problem(at, "duplicate-trigger", f"there is already a trigger named '{brief(str(name), 80)}'",
                       f"it is written at {there[0].file}:{mark.line}:{mark.column}; change it under "
                       "`triggers: {change: ...}`, or give this trigger its own name")


def _suggest_text(word: str, choices: list[str], quote: str) -> str | None:
    """``did you mean "..."?`` for a card text or a trigger name, or None.

    :func:`closest` compares at most ``MAX_SUGGEST_LENGTH`` characters, and card texts are longer: the
    starts of the texts are compared first, then the ends of those that start alike.
    """
    width = MAX_SUGGEST_LENGTH
    starts: dict[str, list[str]] = {}
    for choice in choices:
        starts.setdefault(choice[:width], []).append(choice)
    start: str | None = word[:width]
    if start not in starts:
        start = closest(word[:width], starts)
        if start is None:
            return None
    alike = starts[start]
    ends: dict[str, str] = {}
    for choice in alike:
        ends.setdefault(choice[-width:], choice)
    end: str | None = word[-width:]
    if end not in ends:
        end = closest(word[-width:], ends) if len(ends) > 1 else None
    best = ends[end] if end is not None else alike[0]
    return f"did you mean {quote}{best}{quote}?"


def _take_origins(composed: Composed, path: Path, count: int) -> list[dict[Path, tuple[Document, Path]]]:
    """The origin of each item of the list at ``path`` and those recorded inside it (by their place in the
    item), taken out of ``composed``: the items are about to move."""
    width = len(path)
    taken: list[dict[Path, tuple[Document, Path]]] = [{(): composed.origin(path + (i,))} for i in range(count)]
    for place in [p for p in composed.origins if len(p) > width and p[:width] == path]:
        origin = composed.origins.pop(place)
        index = place[width]
        if len(place) > width + 1 and isinstance(index, int) and 0 <= index < count:
            taken[index][place[width + 1:]] = origin
    return taken


def _put(composed: Composed, path: Path, values: list[Any], origins: list[dict[Path, tuple[Document, Path]]]) -> None:
    parent = composed.data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = values
    for index, taken in enumerate(origins):
        for inside, origin in taken.items():
            composed.origins[path + (index,) + inside] = origin


def _get(data: Any, path: Path) -> Any:
    for part in path:
        if isinstance(data, dict):
            if part not in data:
                return None
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _dotted(path: Path, composed: Composed) -> str:
    if path[:1] == ("board",) and len(path) >= 3:
        name = composed.data["board"][path[1]].get("name")
        return f'the {path[2]} of "{name}"'
    return ".".join(str(p) for p in path)


def _brief(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 40 else text[:37] + "..."


def documents_of(composed: Composed) -> Iterable[Document]:
    return iter(composed.documents)
