"""Version negotiation: the highest version both sides speak, or a clear error."""

from __future__ import annotations

import pytest

from kafka_config_admin import UnsupportedVersionError
from kafka_config_admin._net.security import SecurityOptions
from kafka_config_admin._net.transport import negotiate_version
from kafka_config_admin._protocol import DESCRIBE_CONFIGS, INCREMENTAL_ALTER_CONFIGS


@pytest.mark.parametrize(
    ("broker_range", "chosen"), [((0, 4), 4), ((1, 9), 4), ((0, 2), 2), ((3, 3), 3)]
)
def test_the_highest_common_version_is_chosen(broker_range: tuple[int, int], chosen: int) -> None:
    assert negotiate_version(DESCRIBE_CONFIGS, broker_range) == chosen


def test_a_broker_without_the_api_is_a_clear_error() -> None:
    with pytest.raises(
        UnsupportedVersionError,
        match=r"broker 2 does not support IncrementalAlterConfigs .*release before 2\.3",
    ):
        negotiate_version(INCREMENTAL_ALTER_CONFIGS, None, "broker 2")
    with pytest.raises(UnsupportedVersionError, match="no common DescribeConfigs version"):
        negotiate_version(DESCRIBE_CONFIGS, (5, 7))


def test_security_options_never_show_the_password() -> None:
    options = SecurityOptions("SASL_PLAINTEXT", "PLAIN", "admin", "hunter2")
    assert "hunter2" not in repr(options) and "admin" in repr(options)
