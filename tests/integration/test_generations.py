"""What each broker generation gives: the versions negotiated and the documented fallbacks.

In the ``compat`` subset, which ``nox -s compat`` runs against a 4.x KRaft, a 3.9 KRaft and a
ZooKeeper-era 2.5 broker; the normal suite runs it against the pinned release. A broker says
which versions of each API it speaks (ApiVersions, when the connection opens); every request
must go out at the highest version both sides speak, and an API the broker lacks must fail at
once with an error naming it and the release that brought it.

With ``$KAFKA_CONFIG_ADMIN_COMPAT_RECORD`` set to a file, the negotiation test writes there
what the broker advertised and what the client chose (``nox -s compat`` gathers these into
``benchmarks/results/compat.json``, from which docs/compatibility.md's table is made).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    ConfigType,
    InvalidReplicaAssignmentError,
    InvalidRequestError,
    NewTopic,
    RequestTimedOutError,
    ResourceNotFoundError,
    ResourceType,
    ScramMechanism,
    UnsupportedVersionError,
    UserScramCredentialDeletion,
)
from kafka_config_admin._net.wire import WireRequest, negotiate_version
from kafka_config_admin._protocol import (
    ALTER_CLIENT_QUOTAS,
    ALTER_CONFIGS,
    ALTER_USER_SCRAM_CREDENTIALS,
    CREATE_TOPICS,
    DESCRIBE_CLIENT_QUOTAS,
    DESCRIBE_CONFIGS,
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    INCREMENTAL_ALTER_CONFIGS,
    LIST_GROUPS,
    METADATA,
    ApiCodec,
)
from kafka_config_admin.testing import KafkaCluster

from .helpers import new_topic, unique_name

pytestmark = [pytest.mark.integration, pytest.mark.compat]

ENV_RECORD = "KAFKA_CONFIG_ADMIN_COMPAT_RECORD"
CODECS = (
    METADATA,
    CREATE_TOPICS,
    DESCRIBE_CONFIGS,
    ALTER_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    LIST_GROUPS,
    DESCRIBE_CLIENT_QUOTAS,
    ALTER_CLIENT_QUOTAS,
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    ALTER_USER_SCRAM_CREDENTIALS,
)
#: An API the broker lacks must fail well before the call's deadline: no hang, no retries.
FAILS_WITHIN = 10.0


def release_of(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def has(codec: ApiCodec, release: tuple[int, ...]) -> bool:
    """Whether brokers of ``release`` answer the API (from the release that brought it)."""
    return release >= release_of(codec.since)


@pytest.fixture
def chosen_versions(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[int]]:
    """The versions requests really went out at, by API name."""
    chosen: dict[str, set[int]] = {}
    prepare = WireRequest.prepare

    def recording(self: WireRequest, versions: Mapping[int, tuple[int, int]]) -> WireRequest:
        prepared = prepare(self, versions)
        chosen.setdefault(self._codec.name, set()).add(prepared.API_VERSION)
        return prepared

    monkeypatch.setattr(WireRequest, "prepare", recording)
    return chosen


def advertised_ranges(admin: AdminClient) -> dict[int, tuple[int, int]]:
    """What the first connected broker said in its ApiVersions answer."""
    conn = admin._transport.connections()[0]
    versions: dict[int, tuple[int, int]] = conn._versions
    return versions


async def test_each_api_goes_out_at_the_highest_version_both_speak(
    admin_client: AdminClient,
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    kafka_release: tuple[int, ...],
    chosen_versions: dict[str, set[int]],
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    calls: dict[str, Callable[[], Any]] = {
        METADATA.name: lambda: admin_client.list_topics(),
        CREATE_TOPICS.name: lambda: admin_client.create_topics(
            [NewTopic(unique_name(), 1, 1)], validate_only=True
        ).all(),
        DESCRIBE_CONFIGS.name: lambda: admin_client.describe_configs(
            [topic], include_synonyms=True, include_documentation=True
        ).all(),
        ALTER_CONFIGS.name: lambda: admin_client.alter_configs(
            {topic: {"retention.ms": "7200000"}}, validate_only=True
        ).all(),
        INCREMENTAL_ALTER_CONFIGS.name: lambda: admin_client.incremental_alter_configs(
            {topic: [AlterConfigOp("retention.ms", "7200000")]}, validate_only=True
        ).all(),
        LIST_GROUPS.name: lambda: admin_client.list_groups().all(),
        DESCRIBE_CLIENT_QUOTAS.name: lambda: admin_client.describe_client_quotas().all(),
        ALTER_CLIENT_QUOTAS.name: lambda: admin_client.alter_client_quotas(
            {ClientQuotaEntity({"user": unique_name()}): {"request_percentage": 50}},
            validate_only=True,
        ).all(),
        DESCRIBE_USER_SCRAM_CREDENTIALS.name: lambda: (
            admin_client.describe_user_scram_credentials().all()
        ),
        # Answered RESOURCE_NOT_FOUND ("nobody" has no credential): the version is what counts.
        ALTER_USER_SCRAM_CREDENTIALS.name: lambda: admin_client.alter_user_scram_credentials(
            [UserScramCredentialDeletion("nobody", ScramMechanism.SCRAM_SHA_256)]
        ).wait(),
    }
    for codec in CODECS:
        call = calls.get(codec.name)
        if call is not None and has(codec, kafka_release):
            deprecated = codec is ALTER_CONFIGS
            with (
                pytest.warns(DeprecationWarning, match="replaces") if deprecated else nullcontext()
            ):
                await call()
    advertised = advertised_ranges(admin_client)
    expected = {
        codec.name: negotiate_version(codec, advertised[codec.api_key])
        for codec in CODECS
        if codec.api_key in advertised
    }
    # Every API this client has was called: what was chosen is what went out.
    assert set(calls) == {codec.name for codec in CODECS}
    assert {name: max(versions) for name, versions in chosen_versions.items()} == expected
    assert all(len(versions) == 1 for versions in chosen_versions.values()), chosen_versions
    if kafka_release < (2, 6):  # before KIP-569: no types, no documentation
        assert expected[DESCRIBE_CONFIGS.name] == 2
    record = os.environ.get(ENV_RECORD)
    if record:
        _record(Path(record), kafka_cluster, advertised, expected)


def _record(
    path: Path,
    cluster: KafkaCluster,
    advertised: Mapping[int, tuple[int, int]],
    chosen: Mapping[str, int],
) -> None:
    apis = []
    for codec in CODECS:
        broker = advertised.get(codec.api_key)
        apis.append(
            {
                "api": codec.name,
                "key": codec.api_key,
                "since": codec.since,
                "client": [codec.min_version, codec.max_version],
                "broker": list(broker) if broker is not None else None,
                "chosen": chosen.get(codec.name),
            }
        )
    path.write_text(
        json.dumps({"kafka_version": cluster.kafka_version, "apis": apis}, indent=1) + "\n"
    )


async def test_describe_gives_types_and_documentation_from_kafka_2_6_only(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    config = await admin_client.describe_configs(
        [topic], include_synonyms=True, include_documentation=True
    ).values[topic]
    entry = config["retention.ms"]
    assert entry.value == "604800000" and entry.is_default
    if kafka_release >= (2, 6):
        assert entry.type is ConfigType.LONG
        assert entry.documentation and "retain" in entry.documentation
    else:  # DescribeConfigs v2: the documented fallback
        assert all(e.type is ConfigType.UNKNOWN for e in config.values())
        assert all(e.documentation is None for e in config.values())
        assert entry.parsed_value == "604800000"


@pytest.mark.parametrize(
    ("codec", "call"),
    [
        (DESCRIBE_CLIENT_QUOTAS, lambda admin: admin.describe_client_quotas().all()),
        (
            ALTER_CLIENT_QUOTAS,
            lambda admin: admin.alter_client_quotas(
                {ClientQuotaEntity({"user": "nobody"}): {"request_percentage": 50}}
            ).all(),
        ),
        (
            DESCRIBE_USER_SCRAM_CREDENTIALS,
            lambda admin: admin.describe_user_scram_credentials().all(),
        ),
        (
            ALTER_USER_SCRAM_CREDENTIALS,
            lambda admin: admin.alter_user_scram_credentials(
                [UserScramCredentialDeletion("nobody", ScramMechanism.SCRAM_SHA_256)]
            ).all(),
        ),
    ],
    ids=lambda value: value.name if isinstance(value, ApiCodec) else "",
)
async def test_an_api_the_broker_lacks_fails_at_once_naming_it(
    admin_client: AdminClient,
    kafka_release: tuple[int, ...],
    codec: ApiCodec,
    call: Callable[[AdminClient], Any],
) -> None:
    if has(codec, kafka_release):  # the broker answers (deleting "nobody": that it has none)
        with contextlib.suppress(ResourceNotFoundError):
            await call(admin_client)
        return
    with anyio.fail_after(FAILS_WITHIN), pytest.raises(UnsupportedVersionError) as caught:
        await call(admin_client)
    assert f"does not support {codec.name}" in str(caught.value)
    assert f"release before {codec.since}" in str(caught.value)


async def test_group_configs_fail_alone_on_brokers_before_kafka_4(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    group = ConfigResource(ResourceType.GROUP, unique_name())
    result = admin_client.describe_configs([topic, group])
    assert "retention.ms" in await result.values[topic]
    if kafka_release >= (4, 0):  # GROUP configs came with KIP-848
        assert "consumer.session.timeout.ms" in await result.values[group]
        return
    with pytest.raises(InvalidRequestError):
        await result.values[group]


async def test_a_topic_the_broker_cannot_place_fails_alone(
    admin_client: AdminClient, kafka_broker_ids: list[int], kafka_release: tuple[int, ...]
) -> None:
    """A replica on a broker that does not exist: KRaft refuses it at once; a ZooKeeper-era
    broker takes it, waits for a leader until the request's timeout and answers
    REQUEST_TIMED_OUT for that topic only. Either way the other topic is created, and the
    failed one is not sent again (that would answer TOPIC_ALREADY_EXISTS for it)."""
    fine, nowhere = unique_name(), unique_name()
    result = admin_client.create_topics(
        [
            NewTopic(fine, 1, 1),
            NewTopic(nowhere, replica_assignments={0: [max(kafka_broker_ids) + 10]}),
        ]
    )
    with anyio.fail_after(FAILS_WITHIN + 15):
        await result.wait()
    assert (await result.values[fine]).name == fine
    refused = InvalidReplicaAssignmentError if kafka_release >= (3, 0) else RequestTimedOutError
    assert isinstance(result.errors()[nowhere], refused), result.errors()


async def test_a_filter_the_broker_cannot_apply_is_refused_not_dropped(
    admin_client: AdminClient, kafka_release: tuple[int, ...]
) -> None:
    """ListGroups filters by state from v4 (Kafka 2.6): an older broker would list every group,
    so the call fails at once instead of answering something else than was asked."""
    result = admin_client.list_groups(states={"Stable"})
    if kafka_release >= (2, 6):
        assert all(group.state == "Stable" for group in await result.all())
        return
    with anyio.fail_after(FAILS_WITHIN), pytest.raises(UnsupportedVersionError, match="states"):
        await result.all()
