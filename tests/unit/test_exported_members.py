"""Pins the public surface: everything public is exported from the package root."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from functools import cache
from importlib import import_module
from pathlib import Path
from types import ModuleType

import pytest

import kafka_config_admin
from kafka_config_admin import QuotaValues, desired, state, toolkit
from kafka_config_admin._ops.base import Operation
from kafka_config_admin._ops.scram import ScramUsers


def test_all_is_sorted_and_complete() -> None:
    exported = kafka_config_admin.__all__
    # Sorted as ruff's RUF022 sorts: constants first, then the rest, each alphabetically.
    assert exported == sorted(exported, key=lambda name: (not name.isupper(), name))
    for name in exported:  # each is imported on first use (PEP 562)
        getattr(kafka_config_admin, name)
    # Subpackages (testing, desired, cli) show up here once imported; they are not re-exported.
    public = {
        name
        for name, value in vars(kafka_config_admin).items()
        if not name.startswith(("_", "@")) and not isinstance(value, ModuleType)
    }
    assert public == set(exported) - {"__version__"}


@pytest.mark.parametrize(
    "package", [kafka_config_admin, desired, state, toolkit], ids=lambda p: p.__name__
)
def test_the_lazy_exports_and_the_typed_imports_name_the_same_things(package: ModuleType) -> None:
    """The public names are written once, in ``_HOMES``: the runtime reads it and ``__all__``
    is made from it. Type checkers read the ``if TYPE_CHECKING:`` imports instead: each public
    name is there too, from the same module, as an explicit re-export (``X as X``, which
    ``mypy --strict`` and pyright need, ``__all__`` being computed)."""
    assert package.__file__ is not None
    source = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    checked = next(node for node in source.body if isinstance(node, ast.If))
    imports = [
        ("." * node.level + (node.module or ""), alias)
        for node in checked.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]
    assert [alias.name for _, alias in imports if alias.asname != alias.name] == []
    typed = {(module, alias.name) for module, alias in imports}
    lazy = {(module, name) for module, names in package._HOMES.items() for name in names}
    assert typed == lazy
    assert len(imports) == len(typed)  # each name once
    public = {name for names in package._HOMES.values() for name in names}
    assert set(package.__all__) - {"__version__"} == public


def test_importing_the_package_imports_none_of_the_sdk() -> None:
    script = (
        "import sys, kafka_config_admin; "
        "print(sorted(m for m in sys.modules if m.startswith(('kafka_config_admin.', 'aiokafka', "
        "'pydantic'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert loaded.strip() == "['kafka_config_admin._exports']"


def test_importing_the_client_leaves_the_areas_it_does_not_call_unloaded() -> None:
    """``from kafka_config_admin import AdminClient`` loads what every config call needs; the
    topics, quotas, SCRAM, groups, cluster, listing and catalog modules wait for their first
    call."""
    script = (
        "import sys; from kafka_config_admin import AdminClient; "
        "print(sorted(m for m in sys.modules if m.startswith('kafka_config_admin.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    for area in (
        "_models.topics",
        "_models.quotas",
        "_models.scram",
        "_models.catalog",
        "_models.cluster",
        "_models.listing",
        "_ops.topics",
        "_ops.quotas",
        "_ops.scram",
        "_ops.groups",
        "_ops.cluster",
    ):
        assert f"'kafka_config_admin.{area}'" not in loaded, area
    assert "'kafka_config_admin._client'" in loaded


def test_public_names_show_their_public_module() -> None:
    for name in kafka_config_admin.__all__:
        obj = getattr(kafka_config_admin, name)
        if isinstance(obj, type):
            assert obj.__module__ == "kafka_config_admin", name


@pytest.mark.parametrize("package", [desired, state, toolkit], ids=lambda p: p.__name__)
def test_a_layers_all_is_sorted_and_complete(package: ModuleType) -> None:
    exported = package.__all__
    assert exported == sorted(exported, key=lambda name: (not name.isupper(), name))
    for name in exported:  # each is imported on first use (PEP 562)
        getattr(package, name)
    public = {
        name
        for name, value in vars(package).items()
        if not name.startswith(("_", "@")) and not isinstance(value, ModuleType)
    }
    assert public == set(exported)


def test_quota_and_scram_names_are_exported() -> None:
    for name in (
        "ClientQuotaAlteration",
        "ClientQuotaEntity",
        "ClientQuotaFilter",
        "ClientQuotaFilterComponent",
        "QuotaEntityType",
        "QuotaMatchType",
        "ScramCredentialInfo",
        "ScramMechanism",
        "UserScramCredentialDeletion",
        "UserScramCredentialUpsertion",
        "UserScramCredentialsDescription",
        "UnacceptableCredentialError",
        "UnsupportedSaslMechanismError",
    ):
        assert name in kafka_config_admin.__all__, name


def test_topic_names_are_exported() -> None:
    for name in (
        "CreateTopicsResult",
        "CreatedTopic",
        "InvalidPartitionsError",
        "InvalidReplicaAssignmentError",
        "InvalidReplicationFactorError",
        "NewTopic",
        "TopicAlreadyExistsError",
        "TopicListing",
        "NewPartitions",
        "PartitionInfo",
        "PartitionReassignment",
        "TopicDescription",
        "TopicPartition",
        "DescribeTopicsResult",
        "CreatePartitionsResult",
        "AlterPartitionReassignmentsResult",
        "ReassignmentInProgressError",
        "NoReassignmentInProgressError",
    ):
        assert name in kafka_config_admin.__all__, name


def _public_callables() -> Iterator[tuple[str, Callable[..., object]]]:
    """Every exported function, and every public method or property our exported classes
    define (inherited ones included; pydantic's and the standard library's left out)."""
    for name in kafka_config_admin.__all__:
        obj = getattr(kafka_config_admin, name)
        if inspect.isfunction(obj):
            yield name, obj
        if not isinstance(obj, type):
            continue
        for attribute in dir(obj):
            if attribute.startswith("_") and attribute != "__init__":
                continue
            member = inspect.getattr_static(obj, attribute)
            if isinstance(member, property) and member.fget is not None:
                member = member.fget
            elif isinstance(member, staticmethod | classmethod):
                member = member.__func__
            if inspect.isfunction(member) and member.__module__.startswith("kafka_config_admin"):
                yield f"{name}.{attribute}", member


def _classes_in(hint: object) -> Iterator[type]:
    for candidate in (hint, typing.get_origin(hint)):
        if isinstance(candidate, type):
            yield candidate
    for argument in typing.get_args(hint):
        yield from _classes_in(argument)


def _names_in(annotation: object) -> Iterator[str]:
    if isinstance(annotation, str):
        for node in ast.walk(ast.parse(annotation, mode="eval")):
            if isinstance(node, ast.Name):
                yield node.id


@cache
def _annotation_namespace(module_name: str) -> dict[str, object]:
    """The names a module's annotations may use: its globals, and what its ``if
    TYPE_CHECKING:`` block imports (names a call imports only when it runs)."""
    module = sys.modules[module_name]
    namespace = dict(vars(module))
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    source = import_module(
                        "." * statement.level + (statement.module or ""), module.__package__
                    )
                    for alias in statement.names:
                        namespace[alias.asname or alias.name] = getattr(source, alias.name)
    return namespace


def _hidden_types(where: str, function: Callable[..., object]) -> Iterator[str]:
    """The types ``function``'s signature uses that the package does not export: by the name
    the signature spells (type aliases too) and, resolved, every class inside it."""
    exported = set(kafka_config_admin.__all__)
    namespace = _annotation_namespace(function.__module__)
    for parameter, annotation in function.__annotations__.items():
        for name in _names_in(annotation):
            value = namespace.get(name)
            ours = getattr(value, "__module__", "").startswith("kafka_config_admin")
            if ours and not isinstance(value, typing.TypeVar) and name not in exported:
                yield f"{where}({parameter}): {name}"
    for parameter, hint in typing.get_type_hints(function, globalns=namespace).items():
        for cls in _classes_in(hint):
            ours = cls.__module__.startswith("kafka_config_admin")
            if ours and getattr(kafka_config_admin, cls.__name__, None) is not cls:
                yield f"{where}({parameter}): {cls.__qualname__}"


def test_every_public_signature_names_only_exported_types() -> None:
    """A user can import from the package every type a public method takes or returns."""
    hidden = [problem for where, f in _public_callables() for problem in _hidden_types(where, f)]
    assert not hidden, hidden


def _takes_a_private_alias(users: ScramUsers, values: QuotaValues) -> Operation[str, None]:
    raise NotImplementedError


def test_the_signature_check_sees_what_is_not_exported() -> None:
    assert sorted(_hidden_types("f", _takes_a_private_alias)) == [
        "f(return): Operation",
        "f(return): Operation",
        "f(users): ScramUsers",
        "f(users): ScramUsers",
    ]
