"""Public names imported the first time they are asked for (PEP 562).

The package root and :mod:`kafka_config_admin.desired` list where each public name lives, once
(``_HOMES``: module to names); their ``__all__`` and their ``__getattr__`` are both made from
that table. A module is imported when one of its names is first read, so that
``import kafka_config_admin`` loads none of the SDK, and a command that needs one reader of
``desired`` loads neither the change feed nor apply's modules. Type checkers cannot run the
table: they read the package's ``if TYPE_CHECKING:`` imports (``from M import X as X``, an
explicit re-export), which tests/unit/test_exported_members.py keeps equal to the table.

A public name that moved to another package, or was renamed, stays readable under its old
name for a release: the old package lists it in ``moved`` (old name to the new one in full,
``"kafka_config_admin.state.ResourceKind"``), and reading it there warns
(``DeprecationWarning``) and gives the very object of its new home. It is neither in the old
package's ``__all__`` nor in its namespace, so every read warns.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def exported_names(
    homes: Mapping[str, tuple[str, ...]], *, also: tuple[str, ...] = ()
) -> list[str]:
    """A package's ``__all__``: every public name of ``homes`` and ``also``, sorted as ruff's
    RUF022 sorts (constants first, then the rest, each alphabetically)."""
    names = [name for names in homes.values() for name in names]
    return sorted([*names, *also], key=lambda name: (not name.isupper(), name))


def lazy_exports(
    namespace: dict[str, Any],
    homes: Mapping[str, tuple[str, ...]],
    *,
    show_as_package: bool = False,
    moved: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for the public names in ``homes``: module
    (relative to the package) to its names.

    Reading a name imports its module and sets every public name of that module in
    ``namespace`` (the package's globals). ``show_as_package``: classes show the package as
    their module rather than their private one. ``moved``: old names, each to what it is now
    (``package.name``, in full), read from there with a ``DeprecationWarning``.
    """
    package = namespace["__name__"]
    module_of = {name: module for module, names in homes.items() for name in names}
    moved_to = dict(moved or {})

    def __getattr__(name: str) -> object:
        """Import the module a public name lives in, and every public name of that module."""
        if name in moved_to:
            return _moved(package, name, moved_to[name])
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        home = module_of[name]
        module = import_module(home, package)
        for public in homes[home]:
            value = getattr(module, public)
            if show_as_package and isinstance(value, type):
                value.__module__ = package
            namespace[public] = value
        return namespace[name]

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace["__all__"]})

    return __getattr__, __dir__


def _moved(package: str, name: str, now: str) -> object:
    """An old name of ``package``, read as ``now`` (``module.name``) with a warning naming it."""
    home, _, new_name = now.rpartition(".")
    warnings.warn(
        f"{package}.{name} moved to {now}: import it from {home} "
        f"(the old name is removed in the release after next)",
        DeprecationWarning,
        stacklevel=3,
    )
    return getattr(import_module(home), new_name)
