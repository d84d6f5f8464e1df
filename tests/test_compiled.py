"""The optional compiled build (``MONOPOLY_COMPILE=1 pip install .``, mypyc) plays the same games as the
pure-Python package, bit for bit, and passes the whole test suite.

The default run builds the compiled modules of the tree in place (about a minute) and plays a few games of
each bot on both builds. The two tests that install it with pip, as a user would, and run the whole suite
on it are slow (about four minutes): run them with ``pytest -m compiled``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Plays a few games of each bot and prints one line a bot: its name and the hash of every event of its games.
GAMES = """
import hashlib, json, sys
import monopoly
from monopoly import compiled
print("compiled" if compiled() else "pure")
classic = monopoly.load_ruleset("classic")
for bot in ("greedy", "cautious", "random", "trader"):
    digest = hashlib.sha256()
    for seed in range(int(sys.argv[1])):
        game = monopoly.Game(classic, [monopoly.make_agent(bot) for _ in range(4)], seed=seed, max_turns=400)
        game.observe(lambda event: digest.update(json.dumps(event, sort_keys=True).encode()))
        game.play()
    print(bot, digest.hexdigest()[:16])
"""


def _env(target: Path | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MONOPOLY_COMPILE")}
    if target is not None:
        env["PYTHONPATH"] = str(target)
    return env


@pytest.fixture(scope="module")
def compiled_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine: the compiled build needs one")
    target = tmp_path_factory.mktemp("compiled")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                           str(ROOT)], env={**_env(None), "MONOPOLY_COMPILE": "1"}, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert list((target / "monopoly" / "game").glob("game*.so")), "the build compiled nothing"
    return target


@pytest.fixture(scope="module")
def compiled_in_place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled build without the wheel: setup.py's own extensions built by this environment's mypyc and
    setuptools (no download), beside a copy of the package laid out as pyproject.toml maps it."""
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads pyproject.toml")
    pytest.importorskip("mypyc", reason="mypy (a test dependency) brings mypyc")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine: the compiled build needs one")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no Python headers (Python.h) on this machine: the compiled build needs them")
    work = tmp_path_factory.mktemp("in-place")
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "-j", "2", "--build-lib", str(work / "lib"),
                           "--build-temp", str(work / "temp")],
                          env={**_env(None), "MONOPOLY_COMPILE": "1", "MONOPOLY_COMPILE_DIR": str(work / "c")},
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    target = work / "package"
    for package, folder in sorted(package_dir.items()):  # monopoly (engine/) first, then its sub-packages
        shutil.copytree(ROOT / folder, target / package.replace(".", "/"), dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for extension in (work / "lib").rglob("*.so"):
        shutil.copy2(extension, target / extension.relative_to(work / "lib"))
    return target


def test_a_build_of_the_tree_compiles_and_plays_the_same_games_as_the_pure_package(compiled_in_place: Path) -> None:
    # in the default run, so that no change to the tree breaks the compiled build unseen (about a minute)
    compiled = _games(compiled_in_place, 8)
    pure = _games(None, 8)
    assert compiled[0] == "compiled" and pure[0] == "pure"
    assert compiled[1:] == pure[1:]


def _games(target: Path | None, games: int) -> list[str]:
    done = subprocess.run([sys.executable, "-c", GAMES, str(games)], env=_env(target), cwd=ROOT / "tests",
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout.split("\n")


@pytest.mark.compiled
def test_the_compiled_build_plays_the_same_games_as_the_pure_one(compiled_build: Path) -> None:
    compiled = _games(compiled_build, 30)
    pure = _games(None, 30)
    assert compiled[0] == "compiled" and pure[0] == "pure"
    assert compiled[1:] == pure[1:]


@pytest.mark.compiled
def test_the_whole_suite_passes_on_the_compiled_build(compiled_build: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m",
                           "not slow and not compiled", "tests"], env=_env(compiled_build), cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-6000:]



def test_the_tree_holds_every_module_to_compile_and_no_compiled_one() -> None:
    from monopoly._mypyc import COMPILED

    assert [module for module in COMPILED if not (ROOT / "engine" / module).is_file()] == []
    assert list((ROOT / "engine").rglob("*.so")) == []  # it would shadow its source in an editable install


def test_a_compiled_editable_install_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    # an editable compiled build would write the extensions into engine/, where a pure run would load them
    done = subprocess.run([sys.executable, str(ROOT / "setup.py"), "editable_wheel", "--dist-dir", str(tmp_path)],
                          env={**_env(None), "MONOPOLY_COMPILE": "1"}, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "not an editable one" in done.stderr and "Traceback" not in done.stderr
    assert not list((ROOT / "engine").rglob("*.so"))
