"""Names that moved out of ``kafka_config_admin.desired`` (to ``state``, ``feed`` and
``changeset``) are still read there for one release: each warns, naming its new home, and is
the very object of its new home."""

from __future__ import annotations

import importlib

import pytest

from kafka_config_admin import desired

_HOMES = ("kafka_config_admin.state", "kafka_config_admin.feed", "kafka_config_admin.changeset")


@pytest.mark.parametrize("name", sorted(desired._MOVED))
def test_an_old_name_warns_and_is_the_new_object(name: str) -> None:
    home, _, new_name = desired._MOVED[name].rpartition(".")
    new = getattr(importlib.import_module(home), new_name)
    with pytest.warns(DeprecationWarning, match=rf"desired\.{name} moved to {home}\.{new_name}"):
        old = getattr(desired, name)
    assert old is new


def test_every_moved_name_is_public_in_its_new_home_and_gone_from_the_old() -> None:
    homes = {now.rpartition(".")[0] for now in desired._MOVED.values()}
    assert homes == set(_HOMES)
    for name, now in desired._MOVED.items():
        home, _, new_name = now.rpartition(".")
        assert new_name in importlib.import_module(home).__all__, name
    assert not set(desired._MOVED) & set(desired.__all__)
    assert not set(desired._MOVED) & set(dir(desired))
    # the 156 public names desired had: the ones it keeps and the ones that moved
    assert len(desired._MOVED) + len(desired.__all__) == 156


def test_from_import_of_an_old_name_warns_too() -> None:
    with pytest.warns(DeprecationWarning, match="import it from kafka_config_admin.changeset"):
        from kafka_config_admin.desired import apply_plan
    from kafka_config_admin.changeset import apply_plan as new

    assert apply_plan is new


def test_every_read_warns_not_only_the_first() -> None:
    for _ in range(2):
        with pytest.warns(DeprecationWarning, match="desired.ResourceKind moved"):
            desired.ResourceKind  # noqa: B018


def test_a_name_that_never_was_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        desired.nothing_here  # noqa: B018
