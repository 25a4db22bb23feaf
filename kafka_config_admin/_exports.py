"""Public names imported the first time they are asked for (PEP 562).

The package root and :mod:`kafka_config_admin.desired` list where each public name lives; a
module is imported when one of its names is first read, so that ``import kafka_config_admin``
loads none of the SDK, and a command that needs one reader of ``desired`` loads neither the
change feed nor apply's modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(
    namespace: dict[str, Any],
    homes: Mapping[str, tuple[str, ...]],
    *,
    show_as_package: bool = False,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for the public names in ``homes``: module
    (relative to the package) to its names, ``NAME=ATTRIBUTE`` exporting ATTRIBUTE as NAME.

    Reading a name imports its module and sets every public name of that module in
    ``namespace`` (the package's globals). ``show_as_package``: classes show the package as
    their module rather than their private one.
    """
    package = namespace["__name__"]
    module_of = {
        exported.partition("=")[0]: module for module, names in homes.items() for exported in names
    }

    def __getattr__(name: str) -> object:
        """Import the module a public name lives in, and every public name of that module."""
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        home = module_of[name]
        module = import_module(home, package)
        for exported in homes[home]:
            public, _, attribute = exported.partition("=")
            value = getattr(module, attribute or public)
            if show_as_package and isinstance(value, type):
                value.__module__ = package
            namespace[public] = value
        return namespace[name]

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace["__all__"]})

    return __getattr__, __dir__
