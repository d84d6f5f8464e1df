"""Find ruleset files, follow ``extends``, apply variants: many files -> one tree.

The result is plain data plus an *origin* for every place in it: which file
and which place in that file wrote it. Later checks use the origins to report
problems at the line the designer wrote, even after several files were layered.

Layering rules (documented in docs/ruleset-reference.md):

* mappings merge key by key; lists and scalars replace;
* ``spaces:`` patches existing spaces found by their current name;
* ``triggers`` are appended;
* variants apply in the order given; two variants that set the same place to
  different values are an error naming both files and lines.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path as FsPath
from typing import Any

import attrs

from .load import Document, Path, display_path, load_file
from .problems import Problem, RulesetError, brief
from .schema import check_document, suggest

MAX_EXTENDS = 8
#: Variants applied at once (the six shipped ones all combine well below this).
MAX_VARIANTS = 16
#: All the files of one ruleset together (an edition, what it extends, its variants).
MAX_TOTAL_BYTES = 2 * 1024 * 1024
DEFAULT_BASE = "classic"
# Keys that describe a file rather than the game; they never layer.
_META = ("id", "kind", "extends", "name", "description")


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
    looks_like_path = "/" in text or os.sep in text or text.lower().endswith(RULESET_SUFFIXES)
    if not looks_like_path:
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
    for overlay in chain[1:]:
        _apply(composed, overlay, problems, assigned=None)
    composed.documents.extend(variant_docs)
    assigned: dict[Path, tuple[Document, Path, Any]] = {}
    for doc in variant_docs:
        variant_id = doc.data["id"]
        if variant_id in composed.variants:
            problems.append(doc.problem(("id",), "variant-twice", f"variant '{variant_id}' is applied twice"))
            continue
        composed.variants.append(variant_id)
        _apply(composed, doc, problems, assigned=assigned)
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
    doc = load_file(path)
    schema_problems = check_document(doc, limit)
    if schema_problems:
        problems.extend(schema_problems)
        raise RulesetError(problems)
    return doc


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


def _apply(composed: Composed, doc: Document, problems: list[Problem],
           assigned: dict[Path, tuple[Document, Path, Any]] | None) -> None:
    """Layer one document (an extending edition or a variant) onto ``composed``."""
    data = doc.data
    if assigned is None:  # an edition that extends another: its own name and id win
        for key in ("id", "name", "description"):
            if key in data:
                _set(composed, (key,), data[key], doc, (key,), problems, None)
    for key, value in data.items():
        if key in _META:
            continue
        if key == "spaces":
            _patch_spaces(composed, doc, value, problems, assigned)
        elif key == "triggers":
            triggers = composed.data.setdefault("triggers", [])
            for index, trigger in enumerate(value):
                composed.origins[("triggers", len(triggers))] = (doc, ("triggers", index))
                triggers.append(copy.deepcopy(trigger))
        else:
            _merge(composed, (key,), value, doc, (key,), problems, assigned)


def _merge(composed: Composed, path: Path, value: Any, doc: Document, where: Path,
           problems: list[Problem], assigned: dict[Path, tuple[Document, Path, Any]] | None) -> None:
    current = _get(composed.data, path)
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


def _patch_spaces(composed: Composed, doc: Document, patches: dict[str, Any], problems: list[Problem],
                  assigned: dict[Path, tuple[Document, Path, Any]] | None) -> None:
    board = composed.data.get("board", [])
    names = [space.get("name") for space in board]
    for name, patch in patches.items():
        indexes = [i for i, space_name in enumerate(names) if space_name == name]
        if not indexes:
            hint = suggest(name, dict.fromkeys(n for n in names if isinstance(n, str)), quote='"')
            problems.append(doc.problem(("spaces", name), "unknown-space",
                                        f'no space named "{name}" on the board this file changes', hint, key=True))
            continue
        if "name" in patch and patch["name"] != name:
            mark = doc.mark(("spaces", name), key=True)
            composed.renamed[name] = (patch["name"], f"{doc.file}:{mark.line}:{mark.column}")
        for index in indexes:
            for key, value in patch.items():
                _set(composed, ("board", index, key), value, doc, ("spaces", name, key), problems, assigned)


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
