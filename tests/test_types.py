"""The package passes mypy with the project's configuration (pyproject.toml, [tool.mypy]), and the public
modules (what `import monopoly` gives: the play side, the data side, the agents' protocol, the one writer of
files) pass `mypy --strict`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT

#: The public modules, checked with --strict: those whose names `monopoly.__all__` exports.
STRICT = ["engine/__init__.py", "engine/game", "engine/agents/__init__.py", "engine/agents/base.py",
          "engine/agents/recorder.py", "engine/ruleset", "engine/effects", "engine/files.py"]


def _mypy() -> str:
    mypy = shutil.which("mypy", path=os.path.dirname(sys.executable)) or shutil.which("mypy")
    if mypy is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]' brings it)")
    return mypy


def test_mypy_is_clean():
    result = subprocess.run([_mypy()], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_public_modules_pass_mypy_strict():
    # Only the listed modules are held to --strict: what they import is checked by the test above.
    result = subprocess.run([_mypy(), "--strict", "--follow-imports=silent", *STRICT], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
