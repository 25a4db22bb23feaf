"""``kafka-config-admin-broker`` argument handling (the cluster itself is tested elsewhere)."""

from __future__ import annotations

from kafka_config_admin.testing.__main__ import _parser, command_after_separator


def test_only_the_first_separator_is_taken() -> None:
    args = _parser().parse_args(["--brokers", "1", "--", "cmd", "a", "--", "b"])
    assert command_after_separator(args.command) == ["cmd", "a", "--", "b"]


def test_no_command_and_a_command_without_separator() -> None:
    assert command_after_separator(_parser().parse_args([]).command) == []
    assert command_after_separator(["cmd", "--", "x"]) == ["cmd", "--", "x"]


def test_controllers_are_a_separate_quorum_only_when_asked() -> None:
    assert _parser().parse_args([]).controllers == 0
    assert _parser().parse_args(["--brokers", "3", "--controllers", "3"]).controllers == 3
