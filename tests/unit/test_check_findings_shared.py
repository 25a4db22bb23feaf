"""The checks of many keys judge each key, value and marks once (``check_desired``,
``check_ops``), and find exactly what ``check_value`` finds of each key alone: generated
resources of every kind whose entries carry varied types and marks, and hostile values."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_config_admin import (
    AlterConfigOp,
    CatalogMatch,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    OpType,
    ResourceType,
)
from kafka_config_admin.state import (
    ClusterState,
    DesiredState,
    check_desired,
    check_ops,
    check_value,
)
from kafka_config_admin.toolkit import catalog_releases, load_catalog

KEYS = [
    "retention.ms",
    "cleanup.policy",
    "min.insync.replicas",
    "unclean.leader.election.enable",
    "min.cleanable.dirty.ratio",
    "compression.type",
    "consumer.session.timeout.ms",
    "interval.ms",
    "log.cleaner.threads",
    "background.threads",
    "listener.name.x.ssl.key.password",
    "listener.name.x.max.connections",
    "max.connections",
    "ssl.keystore.location",
    "config.providers.file.class",
    "log.cleaner.dedupe.buffer.size",
    "advertised.listeners",
    "leader.replication.throttled.replicas",
    "sasl.jaas.config",
    "no.such.key",
    "kafka.server.KafkaApis",
    "root",
]
VALUES = [
    "7200000",
    "-1",
    "0",
    " 5 ",
    "9" * 30,
    "1" * 5000,
    "\u0661\u0662",  # Arabic-Indic digits: Java reads them as 12
    "\U0001d7d9",  # a mathematical digit outside the BMP
    "1.5",
    "NaN",
    "true",
    "TRUE",
    "fal\u017fe",
    "",
    "delete,compact",
    "a,,b",
    "zstd",
    "DEBUG",
    "debug",
    "${file:/etc/secret:key}",
    "not a number",
    "0x10",
    "5",
    "2",
    "1024",
    "PLAINTEXT://h:9092",
    "0:1,1:2",
]
KINDS = [ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLIENT_METRICS]
KINDS += [ResourceType.BROKER_LOGGER, ResourceType.BROKER]
CATALOG = CatalogMatch(load_catalog(catalog_releases()[-1]), exact=True)

marks = st.tuples(
    st.sampled_from(list(ConfigType)), st.booleans(), st.booleans()
)  # type, read-only, sensitive


#: Several resources of every kind: the same ops go to each (what a shared finding would
#: carry from one to another), brokers by id and the cluster default among them.
RESOURCES = [
    ConfigResource(kind, name)
    for kind in KINDS
    for name in (["", "1", "2"] if kind is ResourceType.BROKER else ["a", "b", "c"])
]


@st.composite
def states_and_ops(
    draw: st.DrawFn,
) -> tuple[ClusterState, dict[ConfigResource, list[AlterConfigOp]]]:
    """Each resource described with entries of random types, marks and current values, or
    not described at all, and the same ops on every resource."""
    configs: dict[ConfigResource, Config] = {}
    for resource in RESOURCES:
        if draw(st.booleans()):
            described = draw(
                st.lists(
                    st.tuples(st.sampled_from(KEYS), marks, st.sampled_from(["1", "8", None])),
                    max_size=6,
                )
            )
            configs[resource] = Config(
                entries=tuple(
                    ConfigEntry(
                        name=key,
                        value=current,
                        source=ConfigSource.DEFAULT_CONFIG,
                        type=kind_of,
                        is_read_only=read_only,
                        is_sensitive=sensitive,
                    )
                    for key, ((kind_of, read_only, sensitive), current) in {
                        key: (facts, current) for key, facts, current in described
                    }.items()
                )
            )
    chosen = draw(
        st.lists(
            st.tuples(
                st.sampled_from(KEYS), st.sampled_from(VALUES), st.sampled_from(list(OpType))
            ),
            min_size=1,
            max_size=8,
        )
    )
    ops = {
        resource: [
            AlterConfigOp(key, None if op is OpType.DELETE else value, op)
            for key, value, op in chosen
        ]
        for resource in RESOURCES
    }
    catalog = draw(st.sampled_from([CATALOG, None]))
    schemas = {}
    if draw(st.booleans()) and configs:
        first = next(iter(configs))
        schemas[first.type] = configs[first]
    return ClusterState(configs=configs, schemas=schemas, catalog=catalog), ops


@settings(max_examples=300, deadline=None)
@given(states_and_ops())
def test_check_ops_finds_what_each_key_alone_finds(
    generated: tuple[ClusterState, dict[ConfigResource, list[AlterConfigOp]]],
) -> None:
    state, ops = generated
    alone = [
        problem
        for resource, resource_ops in ops.items()
        for op in resource_ops
        if (problem := check_value(state, resource, op.name, op.value, op.op)) is not None
    ]
    assert check_ops(ops, state) == alone


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(KEYS), st.sampled_from([*VALUES, None]), marks),
        min_size=1,
        max_size=6,
    ),
    st.integers(2, 40),
)
def test_check_desired_finds_per_topic_what_each_key_alone_finds(
    keys: list[tuple[str, str | None, tuple[ConfigType, bool, bool]]], topics: int
) -> None:
    """Many topics wanting the same values, their entries' marks varied topic by topic (so
    a shared finding must not carry one topic's marks to another), some undescribed."""
    wanted = {key: value for key, value, _ in keys}
    names = [f"t{index}" for index in range(topics)]
    configs = {}
    for index, name in enumerate(names[:-1]):  # the last topic is not described
        entries = [
            ConfigEntry(
                name=key,
                value="1",
                source=ConfigSource.DEFAULT_CONFIG,
                type=kind if index % 2 else ConfigType.STRING,
                is_read_only=read_only and index % 3 == 0,
                is_sensitive=sensitive and index % 5 == 0,
            )
            for key, _, (kind, read_only, sensitive) in keys
        ]
        configs[ConfigResource(ResourceType.TOPIC, name)] = Config(entries=tuple(entries))
    state = ClusterState(configs=configs, topics=frozenset(names), catalog=CATALOG)
    desired = DesiredState.model_validate(
        {"topics": [{"name": name, "configs": wanted} for name in names]}
    )
    alone = [
        problem
        for name in names
        for key, value in desired.topic_spec(name).configs.items()  # type: ignore[union-attr]
        if (
            problem := check_value(
                state,
                ConfigResource(ResourceType.TOPIC, name),
                key,
                value,
                OpType.SET if value is not None else OpType.DELETE,
            )
        )
        is not None
    ]
    assert check_desired(desired, state) == alone
