"""What the optional compiled build (mypyc, see docs/performance.md) needs to know of a class.

``mypyc_attr`` marks a class that must stay a plain Python class when the package is compiled (one that
inherits from a class written in C, such as ``random.Random``; one whose instances are built field by
field) or that users may subclass. Without mypy installed it is a decorator that changes nothing, so the
pure-Python package needs nothing more than it did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure-Python package: the marks change nothing

        def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:
            return lambda cls: cls


__all__ = ["mypyc_attr"]
