"""The examples in the public API's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["monopoly", "monopoly.ruleset", "monopoly.game.game", "monopoly.game.state",
           "monopoly.game.decisions", "monopoly.game.rent", "monopoly.game.stock", "monopoly.game.movement",
           "monopoly.game.apply", "monopoly.game.events", "monopoly.game.replay", "monopoly.game.answers",
           "monopoly.game.actions", "monopoly.game.core", "monopoly.ruleset.model"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    if not module.__file__.endswith(".py"):
        pytest.skip(f"{name} is compiled (mypyc keeps no docstrings): its examples run on the pure-Python build")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("name", ["embedding.md", "events.md"])
def test_examples_in_the_docs(name):
    from .conftest import ROOT

    failures, tried = doctest.testfile(str(ROOT / "docs" / name), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
