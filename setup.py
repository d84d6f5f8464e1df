"""The optional compiled build: ``MONOPOLY_COMPILE=1 pip install .`` compiles the turn loop with mypyc.

Everything else about the package is in pyproject.toml; without MONOPOLY_COMPILE this file adds nothing, and
the package is pure Python. With it, the modules listed in engine/_mypyc.py are compiled to C extensions
that ship beside their sources. The build needs a C compiler and Python's headers; pip fetches mypy (which
brings mypyc) and what it reads to check the sources into the build environment (BUILD_NEEDS).
The sources are copied to build/mypyc-src/monopoly first (MONOPOLY_COMPILE_DIR instead of build/, when set),
so that mypyc names the modules as the package does (the package is built from engine/, see [tool.setuptools]
in pyproject.toml).

Why an environment variable and not an extra: an extra (``pip install 'monopoly-engine[fast]'``) only adds
run-time dependencies; pip decides how the package itself is built before it reads any extra, and would
install the same pure wheel with or without it (or one it has cached), so ``[fast]`` would promise a build it
cannot ask for. pip's ``--config-settings`` reach setuptools but have no documented way into setup.py (it
takes a build backend of the project's own); the variable works the same with pip, ``python -m build`` and uv.

Why a missing compiler stops the install rather than falling back to the pure package: the variable is an
explicit request, and pip shows a build's output only when the build fails, so a warning printed on the way
to a pure install would go unseen and the user would believe the fast build is in place. So when
MONOPOLY_COMPILE is set and no C compiler, no Python headers or no mypy is found, setup.py stops before it
builds anything, with one message that names what is missing and says that the pure package installs without
the variable (PyYAML's setup.py does the same when its C extension is asked for by name); a compiler that
fails later ends with the same advice under its own output. ``monopoly --version`` says which build runs.
"""

from __future__ import annotations

import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError

HERE = Path(__file__).resolve().parent


def _compiled_extensions() -> list:
    from mypyc.build import mypycify  # needs mypy in the build environment: setup_requires below

    work = Path(os.environ.get("MONOPOLY_COMPILE_DIR") or HERE / "build")  # where the C is written
    staged = work / "mypyc-src" / "monopoly"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(HERE / "engine", staged, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    modules = runpy.run_path(str(HERE / "engine" / "_mypyc.py"))["COMPILED"]
    paths = [str(staged / module) for module in modules]
    return mypycify(paths, separate=True, opt_level=os.environ.get("MONOPOLY_COMPILE_OPT", "3"),
                    target_dir=str(work / "mypyc"))


#: What the compiled build needs beside the package's own build requirements: mypy (which brings mypyc), and
#: what mypy reads to check the sources it compiles, the package's dependencies and their type stubs.
BUILD_NEEDS = ["mypy>=1.8", "types-PyYAML", "types-jsonschema", "pyyaml>=6.0", "jsonschema>=4.18", "lark>=1.1.9",
               "attrs>=23.1", "click>=8.1"]

#: The last line of every refusal: what to do instead.
PURE_INSTEAD = ("Without MONOPOLY_COMPILE the pure-Python package installs (the same games, slower):\n"
                "unset MONOPOLY_COMPILE and run pip again.")


def _missing(mypyc_too: bool) -> list[str]:
    """What the compiled build needs and this machine lacks, each with what to do (all of them, not the first)."""
    missing = []
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC")
    if compiler:  # None where Python was built with MSVC (Windows): setuptools looks for that compiler itself
        words = shlex.split(compiler) or [compiler]
        if shutil.which(words[0]) is None:
            origin = "the CC variable" if os.environ.get("CC") else "Python's build settings"
            missing.append(f"a C compiler: {words[0]!r}, named by {origin}, is not found\n"
                           "    (install one, Debian: apt-get install gcc; or name another with CC)")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        missing.append(f"Python's headers: {headers} is not there\n"
                       "    (Debian: apt-get install python3-dev)")
    if mypyc_too:
        try:
            import mypyc.build  # noqa: F401
        except ImportError as exc:
            missing.append(f"mypy, which brings mypyc: it cannot be imported ({exc})\n"
                           "    (pip fetches it for the build; with --no-build-isolation, install 'mypy>=1.8' first)")
    return missing


def _refuse_if_missing(mypyc_too: bool) -> None:
    missing = _missing(mypyc_too)
    if missing:
        raise SystemExit("\n".join(["monopoly-engine: MONOPOLY_COMPILE is set, asking for the compiled build, which "
                                    "needs:", *(f"  - {line}" for line in missing), PURE_INSTEAD]))


class _BuildExt(build_ext):
    """Ends a failed compilation with the same advice as a refusal, under the compiler's own messages."""

    def run(self) -> None:
        try:
            super().run()
        except CCompilerError as exc:
            raise SystemExit(f"monopoly-engine: the compiled build (MONOPOLY_COMPILE) failed: {exc}\n"
                             f"(the compiler's own messages are above). {PURE_INSTEAD}") from None


if os.environ.get("MONOPOLY_COMPILE", "") in ("", "0"):
    setup()
elif {"editable_wheel", "develop"} & set(sys.argv[1:]):
    # the extensions would be written into engine/, and a pure run from the tree would load them after any change
    raise SystemExit("MONOPOLY_COMPILE is for a regular install (pip install .), not an editable one (pip install "
                     "-e .): unset it for an editable install")
elif {"egg_info", "dist_info"} & set(sys.argv[1:]):  # the build asks what it needs, installed before the build
    _refuse_if_missing(mypyc_too=False)  # mypy is one of those needs: not there yet
    setup(setup_requires=BUILD_NEEDS)
else:
    _refuse_if_missing(mypyc_too=True)
    setup(setup_requires=BUILD_NEEDS, ext_modules=_compiled_extensions(), cmdclass={"build_ext": _BuildExt})
