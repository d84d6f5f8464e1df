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


def test_the_version_names_the_build_in_use(compiled_in_place: Path) -> None:
    # a user who installed with MONOPOLY_COMPILE=1 sees whether the compiled build is the one that runs
    for target, build in ((compiled_in_place, "compiled build"), (None, "pure Python")):
        done = subprocess.run([sys.executable, "-m", "monopoly.cli.main", "--version"], env=_env(target),
                              cwd=ROOT / "tests", capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.startswith("monopoly, version ") and build in done.stdout, done.stdout


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


#: The refusal's last line: what a user without a compiler does instead.
PURE_INSTEAD = "Without MONOPOLY_COMPILE the pure-Python package installs"


def _refused(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal's text, checked to be one short message, not a traceback."""
    assert done.returncode != 0
    assert "Traceback" not in done.stdout + done.stderr
    assert PURE_INSTEAD in done.stderr and len(done.stderr.splitlines()) <= 8, done.stderr
    return done.stderr


def test_a_compiled_build_without_a_c_compiler_stops_at_once_with_one_message() -> None:
    # what pip runs first (setup.py egg_info, to ask what the build needs): no mypy fetched, nothing built
    done = subprocess.run([sys.executable, str(ROOT / "setup.py"), "egg_info"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**_env(None), "MONOPOLY_COMPILE": "1", "CC": "/nonexistent/cc"})
    message = _refused(done)
    assert "a C compiler: '/nonexistent/cc', named by the CC variable, is not found" in message


def test_a_compiled_build_without_mypy_stops_with_one_message() -> None:
    # the build itself (pip's build_wheel), where mypy should be: here it cannot be imported
    setup = f"import runpy, sys; sys.modules['mypyc'] = None; sys.argv = ['setup.py', 'build_ext']; " \
            f"runpy.run_path({str(ROOT / 'setup.py')!r}, run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", setup], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**_env(None), "MONOPOLY_COMPILE": "1"})
    message = _refused(done)
    assert "mypy, which brings mypyc: it cannot be imported" in message
    assert not list((ROOT / "engine").rglob("*.so"))


@pytest.mark.compiled
def test_pip_without_a_c_compiler_refuses_the_compiled_build_in_a_few_lines(tmp_path: Path) -> None:
    # through pip, as a user installs: its report of the failed step holds the message, and nothing else of ours
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path / "t"),
                           str(ROOT)], env={**_env(None), "MONOPOLY_COMPILE": "1", "CC": "/nonexistent/cc"},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert "a C compiler: '/nonexistent/cc', named by the CC variable, is not found" in output
    assert PURE_INSTEAD in output
    assert "Getting requirements to build wheel did not run successfully" in output  # before mypy is fetched
    assert not (tmp_path / "t").exists() or not list((tmp_path / "t").rglob("*.so"))
