"""Pins the public surface: everything public is exported from the package root."""

from __future__ import annotations

import kafka_config_admin


def test_all_is_sorted_and_complete() -> None:
    exported = kafka_config_admin.__all__
    assert exported == sorted(exported)
    public = {name for name in vars(kafka_config_admin) if not name.startswith(("_", "@"))}
    assert public - {"desired", "testing"} == set(exported) - {"__version__"}


def test_public_names_show_their_public_module() -> None:
    for name in kafka_config_admin.__all__:
        obj = getattr(kafka_config_admin, name)
        if isinstance(obj, type):
            assert obj.__module__ == "kafka_config_admin", name


def test_desired_all_is_sorted_and_complete() -> None:
    from kafka_config_admin import desired

    exported = desired.__all__
    assert exported == sorted(exported, key=lambda name: (not name.isupper(), name))
    public = {name for name in vars(desired) if not name.startswith(("_", "@"))}
    assert public == set(exported)
