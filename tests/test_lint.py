"""The code passes ruff with the project's configuration (pyproject.toml)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


def test_ruff_is_clean():
    # the ruff of the environment running the tests first, then any on the PATH
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]' brings it)")
    result = subprocess.run([ruff, "check", "engine", "cli", "tests", "examples"], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr

