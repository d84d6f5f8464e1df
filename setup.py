"""The optional compiled build: ``MONOPOLY_COMPILE=1 pip install .`` compiles the turn loop with mypyc.

Everything else about the package is in pyproject.toml; without MONOPOLY_COMPILE this file adds nothing, and
the package is pure Python. With it, the modules listed in engine/_mypyc.py are compiled to C extensions
that ship beside their sources. The build needs a C compiler and Python's headers; pip fetches mypy (which
brings mypyc) and what it reads to check the sources into the build environment (BUILD_NEEDS).
The sources are copied to build/mypyc-src/monopoly first (MONOPOLY_COMPILE_DIR instead of build/, when set),
so that mypyc names the modules as the package does (the package is built from engine/, see [tool.setuptools]
in pyproject.toml).
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
from pathlib import Path

from setuptools import setup

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

if os.environ.get("MONOPOLY_COMPILE", "") in ("", "0"):
    setup()
elif {"editable_wheel", "develop"} & set(sys.argv[1:]):
    # the extensions would be written into engine/, and a pure run from the tree would load them after any change
    raise SystemExit("MONOPOLY_COMPILE is for a regular install (pip install .), not an editable one (pip install "
                     "-e .): unset it for an editable install")
elif {"egg_info", "dist_info"} & set(sys.argv[1:]):  # the build asks what it needs, installed before the build
    setup(setup_requires=BUILD_NEEDS)
else:
    try:
        extensions = _compiled_extensions()
    except ImportError as exc:
        raise SystemExit(f"MONOPOLY_COMPILE is set but mypyc cannot be imported ({exc}): install mypy in the "
                         "build environment, or build without --no-build-isolation") from None
    setup(setup_requires=BUILD_NEEDS, ext_modules=extensions)
