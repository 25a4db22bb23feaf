"""``plan``, ``apply``, ``audit`` and ``export``: thin over :mod:`kafka_config_admin.desired`."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.table import Table
from rich.text import Text

from .. import AdminClient, ClientQuotaEntity, ConfigResource, ConfigSource, ResourceType
from ..changeset import (
    BrokerVerdict,
    Proposal,
    Refusal,
    RuleCheck,
    SavedPlanError,
    apply_plan,
    ask_broker,
    check_plan_rules,
    is_refusal,
    plan_desired_state,
    read_saved_plan,
    refusal_summary,
    saved_plan_document,
)
from ..desired import (
    Plan,
    ResourceAction,
    ResourcePlan,
    Shadowed,
    StaleKey,
    evaluate_state,
    find_shadowed,
    load_desired_state,
    make_plan,
    stale_keys,
    stale_quotas,
    without_stale,
)
from ..state import (
    ClusterState,
    ConfigWarning,
    DesiredState,
    ResourceKind,
    Rule,
    Violation,
    describe_state,
    parse_size_bytes,
    read_state,
    state_warnings,
    unlisted_brokers,
)
from ..toolkit import cut_short
from ._connect import resolve_connection
from ._exit import ExitCode, say, say_lines
from ._guard import guarding_rules, print_rule_findings, refused_by_rules
from ._options import ConnectionOptions, OutputFormat
from ._output import (
    CELL_LIMIT,
    HIDDEN,
    failures_lines,
    print_document,
    print_refusals,
    print_rows,
    print_table,
    print_verdict,
    print_warnings,
    resource_title,
    stderr,
    stdout,
)
from ._progress import progress_bar, settle
from ._quotas import entity_text
from ._running import cancelled_on_sigterm, client_for, confirmed, open_client, run

if TYPE_CHECKING:
    from ..journal import JournalStore

T = TypeVar("T")


def with_state(
    connection: ConnectionOptions,
    file: Path,
    then: Callable[[AdminClient, DesiredState, ClusterState, str], Awaitable[T]],
    *,
    prune: bool = False,
    for_plan: bool = False,
    override_rules: tuple[str, ...] = (),
) -> T:
    """Load the file and the rules the cluster's clusters-file entry names (before
    connecting; the cluster's rules join the file's), read what the cluster has
    (``for_plan``: only what its plan needs), and go on from there. An ``--override-rule``
    name no rule has is a usage error, said before connecting."""
    desired = load_desired_state(file)
    resolved, label = resolve_connection(connection)
    rules = guarding_rules(resolved, desired.rules, override_rules)
    desired = desired.model_copy(update={"rules": rules})
    admin = client_for(resolved)

    async def work() -> T:
        async with admin:
            state = await read_state(admin, desired, prune=prune, named_keys_only=for_plan)
            return await then(admin, desired, state, label)

    return run(work)


def plan(
    *,
    file: Path,
    prune: bool,
    offline: bool,
    output: OutputFormat,
    out: Path | None,
    override_rules: tuple[str, ...],
    connection: ConnectionOptions,
) -> int:
    """The ``plan`` command's work (its options and help: :mod:`._commands`)."""

    async def show(
        admin: AdminClient, desired: DesiredState, state: ClusterState, label: str
    ) -> int:
        made = make_plan(desired, state, prune=prune)
        guard = check_plan_rules(made, desired.rules, overrides=override_rules)
        verdict = None
        if not (offline or made.problems):
            verdict = await ask_broker(admin, Proposal.of_plan(made))
        savable = not (made.problems or guard.refusing)
        if out is not None and savable and (verdict is None or verdict.accepted):
            cluster_id = (await admin.describe_cluster()).cluster_id
            made = made.model_copy(update={"cluster_id": cluster_id})
            save_plan(made, out)
        if output is OutputFormat.JSON:
            document = made.to_dict()
            document["broker"] = {
                "asked": verdict is not None,
                **(verdict.to_dict() if verdict is not None else {"refused": [], "unknown": []}),
            }
            document["rules"] = guard.to_list()
            sys.stdout.write(json.dumps(document, indent=2) + "\n")
        else:
            print_plan(made, label, verdict)
        return plan_verdict(made, verdict, offline, label, guard)

    return with_state(
        connection, file, show, prune=prune, for_plan=True, override_rules=override_rules
    )


def save_plan(made: Plan, out: Path) -> None:
    """Write ``made`` to ``out`` as a saved plan (:func:`saved_plan_document`; a plan holding
    a secret is refused before anything is written) and say so."""
    document = json.dumps(saved_plan_document(made), indent=2) + "\n"
    try:
        out.write_text(document, encoding="utf-8")
    except OSError as error:
        raise click.FileError(str(out), hint=error.strerror or str(error)) from None
    say(f"plan saved to {out} (digest {made.digest[:12]}); apply exactly it with: apply {out}")


def plan_verdict(
    made: Plan,
    verdict: BrokerVerdict | None,
    offline: bool,
    label: str,
    guard: RuleCheck | None = None,
) -> int:
    """The plan's last lines and its exit code: 2 when the checks here or the brokers refuse
    a change, 1 when the brokers could not be asked, 4 when a change breaks a rule not
    overridden (``guard``), else 3 for changes and 0 for none. The last line names the
    cluster ``label`` (a plan without changes prints no table)."""
    if made.problems:
        print_refusals(made.problems)
        return ExitCode.USAGE
    guard = guard or RuleCheck()
    print_rule_findings(guard)
    if verdict is not None:
        print_verdict(verdict)
        if not verdict.accepted:
            refused = len(verdict.refusals())
            say(
                f"the brokers refuse {refused} change(s), and {len(verdict.unknown())} could "
                "not be asked; nothing was changed"
            )
            return ExitCode.USAGE if refused else ExitCode.FAILED
    if guard.refusing:
        say(f"apply would refuse: {refusal_summary(guard.refusing)}")
        return ExitCode.RULE_REFUSED
    if offline:
        say(
            "offline: planned from the file and the cluster's state alone; the brokers were "
            "not asked to validate the changes"
        )
    if not made.has_changes:
        say(no_changes_line(label))
        return ExitCode.OK
    accepted = "" if verdict is None else " (the brokers accept every change)"
    say(f"changes needed on {label}{accepted}")
    return ExitCode.CHANGES


def apply(
    *,
    file: Path,
    prune: bool,
    dry_run: bool,
    yes: bool,
    throttle: str | None,
    reassignment_timeout: float,
    skip_stale: bool,
    override_rules: tuple[str, ...],
    connection: ConnectionOptions,
) -> int:
    """The ``apply`` command's work (its options and help: :mod:`._commands`)."""
    # Here, not at import: the journal (SQLite, the feed's readers) is apply's alone, and
    # plan, which shares this module, runs in loops where its import is felt.
    from ._journal import journal_for

    rate = throttle_rate(throttle)
    saved = read_saved_plan(_text_of(file), str(file))
    if saved is not None:
        if prune:
            raise click.UsageError(
                "--prune is decided when a plan is saved ('plan --prune --out'), not at its apply"
            )
        # A saved plan carries no file's rules: the cluster's own guard it
        work = partial(
            _apply_changes,
            dry_run=dry_run,
            yes=yes,
            throttle=rate,
            reassignment_timeout=reassignment_timeout,
            rules=guarding_rules(resolve_connection(connection)[0], (), override_rules),
            overrides=override_rules,
            journal=journal_for(connection),
        )
        return apply_saved(saved, file, work, skip_stale=skip_stale, connection=connection)
    if skip_stale:
        raise click.UsageError("--skip-stale is for a saved plan ('plan --out'), not a file")

    async def go(admin: AdminClient, desired: DesiredState, state: ClusterState, label: str) -> int:
        made = make_plan(desired, state, prune=prune)
        print_plan(made, label)
        if made.problems:
            print_refusals(made.problems)
            return ExitCode.USAGE
        if not made.has_changes:
            say(no_changes_line(label))
            return ExitCode.OK
        say(f"changes needed on {label}")
        return await _apply_changes(
            admin,
            made,
            label,
            dry_run=dry_run,
            yes=yes,
            throttle=rate,
            reassignment_timeout=reassignment_timeout,
            rules=desired.rules,
            overrides=override_rules,
            journal=journal_for(connection),
        )

    return with_state(
        connection, file, go, prune=prune, for_plan=True, override_rules=override_rules
    )


async def _apply_changes(
    admin: AdminClient,
    made: Plan,
    label: str,
    *,
    dry_run: bool,
    yes: bool,
    throttle: int | None,
    reassignment_timeout: float,
    rules: Sequence[Rule],
    overrides: tuple[str, ...],
    journal: JournalStore,
) -> int:
    """Refuse ``made`` when it breaks one of ``rules`` not in ``overrides`` (nothing sent),
    else confirm (unless ``yes`` or ``dry_run``), apply it and print its outcomes."""
    from ._journal import recorder  # with the journal, as apply's alone (see apply)
    from ._report import print_report

    if refused_by_rules(check_plan_rules(made, rules, overrides=overrides)):
        return ExitCode.RULE_REFUSED
    if not dry_run and not confirmed(yes, f"Apply these changes to {label}?"):
        return ExitCode.FAILED
    with reassignment_bar() as progress:
        report = await cancelled_on_sigterm(
            apply_plan(
                admin,
                made,
                dry_run=dry_run,
                throttle=throttle,
                reassignment_timeout=reassignment_timeout,
                progress=progress,
                rules=rules,
                overrides=overrides,
                recorder=recorder(journal, label),
            )
        )
    return print_report(made, report)


def _text_of(file: Path) -> str:
    """The file's text, to tell a saved plan from a desired-state file ("" when it cannot be
    read as text: the desired-state loader then says what is wrong with it)."""
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def apply_saved(
    saved: Plan,
    file: Path,
    work: Callable[[AdminClient, Plan, str], Awaitable[int]],
    *,
    skip_stale: bool,
    connection: ConnectionOptions,
) -> int:
    """Apply the saved plan ``saved`` (read from ``file``) with ``work``: on the cluster it was
    made for only, after a fresh read of its keys; stale keys apply nothing (exit 5), or,
    with ``skip_stale``, are left out (exit 5 unless the rest failed: 1)."""
    from ._report import changed_keys  # with the journal, as apply's alone (see apply)

    admin, label = open_client(connection)

    async def go() -> int:
        async with admin:
            cluster_id = (await admin.describe_cluster()).cluster_id
            if cluster_id != saved.cluster_id:
                raise SavedPlanError(
                    f"{file} was made for the cluster with id {saved.cluster_id}, and {label} "
                    f"has id {cluster_id}: nothing was applied"
                )
            state = await read_state(admin, plan_desired_state(saved), named_keys_only=True)
            unread = [(r, changed_keys(saved, r), e) for r, e in state.errors.items()]
            if unread:
                say_lines(f"failed: {line}" for line in failures_lines(unread))
                say(f"the plan's keys could not all be read again on {label}: nothing applied")
                return ExitCode.FAILED
            moved = stale_keys(saved, state), stale_quotas(saved, state)
            stale = print_stale(*moved)
            if stale and not skip_stale:
                say(
                    f"nothing applied: {stale} key(s) changed on {label} since {file} was made; "
                    "make a new plan, or apply the rest with --skip-stale"
                )
                return ExitCode.STALE
            rest = without_stale(saved, *moved)
            print_plan(rest, label)
            if not rest.has_changes:
                say(f"nothing left to apply on {label}")
                return ExitCode.STALE if stale else ExitCode.OK
            say(f"applying {file} (digest {saved.digest[:12]}) to {label}")
            code = await work(admin, rest, label)
            return ExitCode.STALE if stale and code == ExitCode.OK else code

    return run(go)


def print_stale(
    configs: Mapping[ConfigResource, tuple[StaleKey, ...]],
    quotas: Mapping[ClientQuotaEntity, tuple[StaleKey, ...]],
) -> int:
    """One line per stale key (:func:`stale_keys`, :func:`stale_quotas`); how many."""
    lines = [
        _stale_line(resource_title(resource.type.name, resource.name), key)
        for resource, keys in configs.items()
        for key in keys
    ]
    lines += [
        _stale_line(f"quotas of {entity_text(dict(entity))}", key)
        for entity, keys in quotas.items()
        for key in keys
    ]
    say_lines(lines)
    return len(lines)


def _stale_line(title: str, key: StaleKey) -> str:
    planned = _stale_value(key.planned, key.planned_source)
    now = _stale_value(key.now, key.now_source)
    return f"stale: {title}: {key.key} was {planned} when planned, is {now} now"


def _stale_value(value: str | None, source: ConfigSource) -> str:
    """``604800000 (DEFAULT_CONFIG)``; ``none`` for no value; a quota's has no source."""
    text = "none" if value is None else value
    return text if source is ConfigSource.UNKNOWN else f"{text} ({source.name})"


def audit(*, file: Path, output: OutputFormat, connection: ConnectionOptions) -> int:
    """The ``audit`` command's work (its options and help: :mod:`._commands`)."""

    async def check(
        admin: AdminClient, desired: DesiredState, state: ClusterState, label: str
    ) -> int:
        state = await with_rule_targets(admin, desired, state)
        for line in failures_lines((r, [], e) for r, e in state.errors.items()):
            stderr.print(f"failed: {line}", markup=False)
        violations = evaluate_state(desired.rules, state, desired=desired)
        shadowed = find_shadowed(state)
        warnings = state_warnings(state)
        if output is OutputFormat.JSON:
            print_document(audit_document(label, violations, shadowed, warnings), output)
        else:
            print_violations(violations, label)
            print_shadowed(shadowed, f"cluster-default values brokers override on {label}")
            print_warnings(warnings)
            stderr.print(
                f"audit of {label}: {len(desired.rules)} rule(s), {len(violations)} violation(s)",
                markup=False,
            )
        if state.errors:
            return ExitCode.FAILED
        return ExitCode.CHANGES if violations else ExitCode.OK

    return with_state(connection, file, check)


async def with_rule_targets(
    admin: AdminClient, desired: DesiredState, state: ClusterState
) -> ClusterState:
    """``state`` and the resources the rules are about that the file does not name: the
    topics each topic rule matches, every broker, the cluster default. A broker the cluster
    has that its metadata does not list (``unlisted_brokers``: down) is an error of the
    state when a rule or the file is about brokers: unknown, not checked, never a pass."""
    targets: list[ConfigResource] = []
    unlisted: dict[ConfigResource, BaseException] = {}
    if desired.brokers or any(rule.resource is ResourceKind.BROKER for rule in desired.rules):
        unlisted, _ = await unlisted_brokers(admin)
    topics: list[str] | None = None  # listed once for every topic rule
    for rule in desired.rules:
        if rule.resource is ResourceKind.TOPIC:
            if topics is None:
                topics = [topic.name for topic in await admin.list_topics()]
            targets += [
                ConfigResource(ResourceType.TOPIC, t) for t in topics if rule.selects_name(t)
            ]
        elif rule.resource is ResourceKind.BROKER:
            targets += [ConfigResource(ResourceType.BROKER, str(b)) for b in admin.broker_ids()]
        elif rule.resource is ResourceKind.CLUSTER_DEFAULT:
            targets.append(ConfigResource(ResourceType.BROKER, ""))
    missing = [target for target in dict.fromkeys(targets) if target not in state.configs]
    more = await describe_state(admin, missing, settle=partial(settle, doing="reading configs"))
    return replace(
        state,
        configs={**state.configs, **more.configs},
        errors={**unlisted, **state.errors, **more.errors},
    )


def audit_document(
    cluster: str,
    violations: list[Violation],
    shadowed: list[Shadowed],
    warnings: Sequence[ConfigWarning],
) -> dict[str, Any]:
    """The audit's JSON: each violation with what broke it (a config resource, a quota entity
    or a SCRAM user), key, actual value and rule; each cluster-default value a broker
    overrides for itself (when the file has a cluster default); each value set on the cluster
    that a coming Kafka release will refuse (a warning, not a violation)."""
    return {
        "kind": "audit",
        "version": 1,
        "cluster": cluster,
        "shadowed": [shadow.to_dict() for shadow in shadowed],
        "warnings": [warning.to_dict() for warning in warnings],
        "violations": [
            {
                "resource": v.subject_dict(),
                "key": v.key,
                "actual": v.actual,
                "rule": str(v.rule),
                "message": str(v),
            }
            for v in violations
        ],
    }


def no_changes_line(label: str) -> str:
    """What ``plan`` and ``apply`` say when cluster ``label`` is as the file wants."""
    return f"no changes: cluster {label} is as wanted"


def print_violations(violations: list[Violation], label: str) -> None:
    """The violations as a table on stdout, one row per rule broken by a resource, quota
    entity or SCRAM credential."""
    if not violations:
        return
    table = Table(title=f"audit of {label}", title_justify="left")
    for column in ("violated by", "key", "actual", "rule", "reason"):
        table.add_column(column, overflow="fold")
    for violation in violations:
        actual = HIDDEN if violation.hidden else violation.actual or ""
        cells = (violation.subject, violation.key or "", actual, str(violation.rule))
        # Text, not markup: a rule such as "cleanup.policy in [delete]" keeps its brackets.
        table.add_row(*(Text(cell) for cell in (*cells, violation.reason)))
    print_table(stdout, table)


def print_shadowed(shadowed: Iterable[Shadowed], title: str) -> None:
    """Cluster-default values brokers override for themselves, as a table on stderr."""
    shadowed = list(shadowed)
    if not shadowed:
        return
    table = Table(title=title, title_justify="left")
    for column in ("broker", "key", "broker's own value", "cluster default"):
        table.add_column(column, overflow="fold")
    for shadow in shadowed:
        values = (
            (HIDDEN, HIDDEN) if shadow.sensitive else (shadow.broker_value, shadow.cluster_value)
        )
        table.add_row(*(Text(cell or "") for cell in (str(shadow.broker), shadow.key, *values)))
    print_table(stderr, table)


def print_plan(made: Plan, label: str, verdict: BrokerVerdict | None = None) -> None:
    """The plan as a table on stderr (stdout stays free for machine output); when the
    brokers' ``verdict`` refuses a change (or they could not be asked), a last column says of
    each change whether they accept it. Without a refusal the table is as wide as without a
    verdict: a wider one no longer fits a pipe's 80 columns and is laid out by rich, which
    for 2,000 rows cost more CPU than everything else ``plan`` does."""
    rows: list[tuple[str, ...]] = []
    said = _VerdictColumn(verdict)
    for item in made.resources:
        title = resource_title(item.resource.type.name, item.resource.name)
        resource = item.resource
        if item.create is not None:
            created = f"{item.create.partitions} partitions, RF {item.create.replication_factor}"
            rows.append(
                (title, "create", "", "", "", cut_short(created, CELL_LIMIT), said.topic(resource))
            )
        elif item.action is ResourceAction.MISSING:
            rows.append((title, "missing", "", "", "", "no partitions/RF to create it", ""))
        if item.partitions is not None:
            summary = item.partitions.summary()
            rows.append((title, "partitions", "", "", "", summary, said.partitions(resource)))
        for change in item.changes:
            shown = change.shown()
            action, key, op = item.action.value, change.key, change.op.name
            current, wanted = (cut_short(value or "", CELL_LIMIT) for value in shown)
            rows.append((title, action, key, op, current, wanted, said.key(item, key)))
        for skipped in item.skipped:
            rows.append((title, "skip", skipped.key, "", "", skipped.reason, ""))
        for kept in item.kept:
            current = HIDDEN if kept.sensitive else cut_short(kept.current or "", CELL_LIMIT)
            rows.append((title, "keep", kept.key, "", current, kept.reason, ""))
    for quota in made.quotas:
        title = entity_text(quota.entity)
        for quota_change in quota.changes:
            op = quota_change.op.name
            current, wanted = (value or "" for value in quota_change.shown())
            verdict_cell = said.quota(quota.quota_entity)
            rows.append((title, "alter", quota_change.key, op, current, wanted, verdict_cell))
    for user in made.scram:
        for scram in user.changes:
            current = "" if scram.current_iterations is None else f"{scram.current_iterations}"
            wanted = ""
            if scram.iterations is not None:
                wanted = f"{scram.iterations} (password from ${scram.password_env})"
            title = f"SCRAM user {user.user!r}"
            rows.append((title, "alter", scram.mechanism, scram.op, current, wanted, said.scram))
    if made.resources or made.quotas or made.scram:
        beside = verdict is not None and not verdict.accepted
        columns = PLAN_COLUMNS if beside else PLAN_COLUMNS[:-1]
        shown_rows = rows if beside else [row[:-1] for row in rows]
        print_rows(stderr, f"plan for {label}", columns, shown_rows)
    print_shadowed(
        (shadow for item in made.resources for shadow in item.shadowed),
        f"cluster-default values brokers of {label} override for themselves (they keep theirs)",
    )
    print_warnings(made.warnings)


#: The plan table's columns (the last only when the brokers refuse a change).
PLAN_COLUMNS = ("resource", "action", "key", "op", "current", "wanted", "broker")


class _VerdictColumn:
    """What the plan table's ``broker`` column says of each change: ``accepts``,
    ``REFUSES`` (the reason follows the table), ``not asked`` (could not be asked), or ``-``
    (Kafka cannot validate it: SCRAM credentials)."""

    def __init__(self, verdict: BrokerVerdict | None) -> None:
        self.verdict = verdict or BrokerVerdict()

    scram = "-"

    def key(self, item: ResourcePlan, key: str) -> str:
        if item.create is not None:
            return self.topic(item.resource)
        refusal = self.verdict.configs.get(item.resource)
        if refusal is not None and key not in {named for named, _ in refusal.keys}:
            refusal = None  # refused with the resource's other keys: they are named
        return self._cell(refusal)

    def topic(self, resource: ConfigResource) -> str:
        return self._cell(self.verdict.topics.get(resource.name))

    def partitions(self, resource: ConfigResource) -> str:
        return self._cell(self.verdict.partitions.get(resource.name))

    def quota(self, entity: ClientQuotaEntity) -> str:
        return self._cell(self.verdict.quotas.get(entity))

    @staticmethod
    def _cell(refusal: Refusal | None) -> str:
        if refusal is None:
            return "accepts"
        return "REFUSES" if is_refusal(refusal.error) else "not asked"


def throttle_rate(text: str | None) -> int | None:
    """``--throttle`` in bytes per second (units as in the file: 10MiB, 500kB)."""
    if text is None:
        return None
    given = text.strip().removesuffix("/s")
    try:
        rate = int(given) if given.isdecimal() else parse_size_bytes(given)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--throttle") from None
    if rate < 1:
        raise click.BadParameter("must be at least 1 byte per second", param_hint="--throttle")
    return rate


@contextlib.contextmanager
def reassignment_bar() -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback drawing a bar of partitions moved, on a terminal only."""
    if not stderr.is_terminal:
        yield None
        return
    with progress_bar("moving replicas") as bar:
        task = bar.add_task("moving replicas", total=None)

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield show
