"""Every command of ``kafka-config-admin``: its arguments, options and help, as click declares them.

Light on purpose: this module loads click and nothing of the SDK, aiokafka, pydantic or rich, so
``--help`` (of the group or of any command), ``--version`` and every usage error click finds
(an unknown option, a missing argument, a value of the wrong form) are answered at once. Each
command's work is a function of the same name in its own module, imported by the command's
body when it runs and handed every option by name: its keyword-only signature is the typed
contract. A new command goes here, with its work in a module of its own
(tests/unit/test_cli_registration.py checks that no other module declares one, that the work
takes exactly what the declaration collects, and that no help or usage error loads the SDK).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ._options import (
    REASSIGNMENT_TIMEOUT,
    RESOURCE_KINDS,
    OutputFormat,
    Seconds,
    change_options,
    connection_options,
    output_option,
    selection_options,
)

#: Seconds between the polls of ``watch`` unless ``--interval`` says otherwise.
WATCH_INTERVAL = 10.0
#: ``watch --broker-gone-after``'s default: the feed's (``feed.BROKER_GONE_AFTER``, which
#: this module does not import so that ``--help`` loads none of the SDK; a test keeps them equal).
WATCH_BROKER_GONE_AFTER = 86400.0

_TIME = "ISO 8601 time (no zone: UTC), or a duration ago: 30m, 2h, 7d"

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
_PRUNE = click.option(
    "--prune", is_flag=True, help="Also delete overrides of the file's resources it does not name."
)

_OVERRIDE_RULE = click.option(
    "--override-rule",
    "override_rules",
    multiple=True,
    metavar="NAME",
    help="Apply a change that breaks this rule (of the cluster's clusters-file entry, or of "
    "FILE) all the same, said in the outcome; NAME is the rule's name, else its check as the "
    "refusal prints it (repeatable).",
)


class NotWritten(Exception):
    """A write that failed (the output's reader closed the pipe, a full disk): the ``OSError``
    is its cause. Raised in click's place, whose own handling of a closed pipe ends the
    program silently with 1: :mod:`._main` says it in one line with the documented code."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        #: The write's own error.
        self.error = error


@contextlib.contextmanager
def _written() -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise NotWritten(error) from error


class _Program(click.Group):
    """The root command: a failed write (help, a command's output) raises :class:`NotWritten`."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        with _written():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _written():
            return super().invoke(ctx)


@click.group(
    cls=_Program,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="kafka-config-admin")
def cli() -> None:
    """Read and change Kafka configs: describe, alter, plan and apply a desired-state file."""


@cli.command()
@selection_options()
@change_options
@click.option("--dry-run", is_flag=True, help="Let the brokers validate the change; apply nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@_OVERRIDE_RULE
@connection_options
def alter(**options: Any) -> int:
    """Change configs incrementally on one or many resources, or a quota entity's quotas or
    SCRAM credentials (--entity-type users|clients|ips, as kafka-configs.sh).

    Each change is checked against the types the broker reports before anything is sent
    (unknown keys, read-only keys, values that do not parse, APPEND/SUBTRACT on non-LIST keys).
    The plan is shown and confirmed unless --yes; without a terminal, --yes is required.

    Exit 4, nothing sent: a change breaks a rule of the cluster's clusters-file entry that
    --override-rule does not name (--dry-run too). Exit 5, nothing sent: a key changed on
    the cluster between the table shown and the apply.
    """
    from ._alter import alter as work

    return work(**options)


@cli.command()
@click.argument("file", type=_FILE)
@_PRUNE
@click.option("--dry-run", is_flag=True, help="Let the brokers validate the plan; apply nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--throttle",
    metavar="BYTES/s",
    help="Throttle replica moves to this rate (1048576, 10MiB) while they run; the throttle "
    "keys are put back as they were at the end, even when interrupted.",
)
@click.option(
    "--reassignment-timeout",
    type=Seconds(min=0, min_open=True),
    default=REASSIGNMENT_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="How long to follow replica moves; those still running then go on in the cluster "
    "(exit 1, plan shows them in progress).",
)
@click.option(
    "--skip-stale",
    is_flag=True,
    help="FILE a saved plan: apply its keys that did not change since it was made, and leave "
    "out those that did (exit 5); without it, a stale key applies nothing.",
)
@_OVERRIDE_RULE
@connection_options
def apply(**options: Any) -> int:
    """Make the cluster as FILE says: validate on the brokers, apply, read back.

    FILE is a desired-state file, or a plan saved by 'plan --out': then exactly that plan is
    applied, on the cluster it was made for, and only when none of its keys changed since
    (exit 5 names them; --skip-stale applies the rest). A saved plan edited by hand or made
    for another cluster is refused (exit 2).

    Nothing is sent when any value is refused (exit 2), or when a change breaks a rule of
    FILE or of the cluster's clusters-file entry that --override-rule does not name (exit 4).
    Exit 1 when any resource failed; the
    others are applied all the same. Partition counts are raised, replication factors changed
    by reassignment, followed until done (a bar on a terminal). Interrupted (Ctrl-C, SIGTERM),
    it stops following and puts the throttles back first.
    """
    from ._desired import apply as work

    return work(**options)


@cli.command()
@click.argument("file", type=_FILE)
@output_option(OutputFormat.TABLE, OutputFormat.JSON)
@connection_options
def audit(**options: Any) -> int:
    """Check the cluster against the rules of FILE: configs, client quotas, SCRAM users.

    Exit 0: none violated; 3: violations; 2: the file is refused; 1: the cluster could not be
    read.
    """
    from ._desired import audit as work

    return work(**options)


@cli.command()
@selection_options()
@click.option("--all", "all_", is_flag=True, help="Show every config, defaults too.")
@click.option("--docs", is_flag=True, help="Show each key's documentation.")
@click.option("--synonyms", is_flag=True, help="Show where each value could come from.")
@click.option("--keys", metavar="K1,K2", help="Only these keys (defaults included).")
@output_option(OutputFormat.TABLE, OutputFormat.JSON, OutputFormat.YAML)
@connection_options
def describe(**options: Any) -> int:
    """Show the configs of topics, brokers, broker loggers, groups and client-metrics, or
    the quotas of users, client ids and IPs (with users' SCRAM credentials).

    Without --all only the values set on each resource are shown. Resources are TYPE:NAME
    (topic:orders, broker:1, broker: for the cluster default, broker-logger:1, group:g,
    client-metrics:m) or a bare topic name. Quotas: --entity-type users|clients|ips with
    --entity-name NAME or --entity-default, as kafka-configs.sh (without a name: every entity
    of the type). Exit 1 when a resource could not be described.
    """
    from ._describe import describe as work

    return work(**options)


@cli.command()
@selection_options()
@click.option(
    "--against",
    "snapshot",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A saved 'describe --output json' (or yaml) snapshot.",
)
@click.option("--against-cluster", metavar="NAME", help="A cluster of the clusters file.")
@click.option("--against-bootstrap-server", metavar="HOST:PORT", help="Another cluster.")
@output_option(OutputFormat.TABLE, OutputFormat.JSON)
@connection_options
def diff(**options: Any) -> int:
    """Compare the overrides of the cluster with a snapshot or with another cluster.

    Resources: those named, else a snapshot's, else every topic and the cluster default.
    Values are compared by type (604800000 equals "604800000"). Exit 0: the same; 3: different.
    """
    from ._diff import diff as work

    return work(**options)


@cli.command()
@click.argument("key")
@connection_options
def docs(**options: Any) -> int:
    """Print KEY's type, default, valid values and update mode beside its live documentation.

    The live broker describes KEY on a topic, a broker, a group and a client-metrics
    resource; the config catalog of the broker's Kafka release (Kafka's own ConfigDefs) adds
    the default, the valid values, the importance and, for broker keys, whether it can be
    changed per broker, cluster-wide or only with a restart. Every kind of resource that
    takes KEY is shown. Exit 2 when none does.
    """
    from ._describe import docs as work

    return work(**options)


@cli.command()
@click.option("--match", metavar="REGEX", help="Only topics whose whole name matches REGEX.")
@click.option(
    "--group",
    multiple=True,
    metavar="NAME",
    help="Export this group's configs (repeatable); without it, every group with overrides.",
)
@click.option("--no-groups", is_flag=True, help="Leave out the groups.")
@click.option("--no-brokers", is_flag=True, help="Leave out the brokers and the cluster default.")
@click.option("--no-quotas", is_flag=True, help="Leave out the client quotas.")
@output_option(OutputFormat.YAML, OutputFormat.JSON)
@connection_options
def export(**options: Any) -> int:
    """Write the cluster's current overrides as a desired-state file (to stdout).

    Topics, each broker, the cluster default, the groups (those named with --group, or else
    every group of the cluster that has overrides) and every entity's client quotas. Sensitive
    values and SCRAM passwords cannot be read and are left out (each named on stderr).
    """
    from ._export import export as work

    return work(**options)


@cli.command()
@click.option(
    "--cluster",
    metavar="NAME",
    help="Only changes to this cluster (label or id); a cluster whose clusters-file entry names "
    "a journal topic is read from that topic.",
)
@click.option(
    "--clusters-file",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="PATH",
    help="The clusters file naming --cluster's journal topic [else $KAFKA_CONFIG_ADMIN_CLUSTERS, "
    "else ~/.config/kafka-config-admin/clusters.yaml].",
)
@click.option(
    "--resource",
    metavar="TYPE:NAME",
    help="Only changes of this resource: topic:orders, broker:1, broker: (the cluster "
    "default), quota:user=alice, scram-user:alice (a bare name is a topic).",
)
@click.option("--key", metavar="KEY", help="Only changes of this key.")
@click.option("--user", metavar="USER", help="Only changes made by this user.")
@click.option(
    "--face", type=click.Choice(["cli", "web", "spark", "sdk"]), help="Only changes from here."
)
@click.option("--change-set", metavar="ID", help="Only the changes of this change set.")
@click.option("--since", metavar="TIME", help=f"Only changes at or after TIME ({_TIME}).")
@click.option("--until", metavar="TIME", help=f"Only changes before TIME ({_TIME}).")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="Only the N newest changes.")
@output_option(OutputFormat.TABLE, OutputFormat.JSON, OutputFormat.YAML)
def history(**options: Any) -> int:
    """Show the journal: every change made through this tool (CLI, web editor, Spark, SDK),
    oldest first, with who made it, from where, the old and new values and the outcome.

    The journal is KAFKA_CONFIG_ADMIN_JOURNAL, else $XDG_DATA_HOME/kafka-config-admin/
    journal.sqlite (~/.local/share when XDG_DATA_HOME is unset); with --cluster NAME whose
    clusters-file entry says journal: {topic: ...}, that topic. A sensitive key's values are
    never recorded.
    """
    from ._history import history as work

    return work(**options)


@cli.command()
@click.argument("file", type=_FILE)
@_PRUNE
@click.option(
    "--offline",
    is_flag=True,
    help="Plan from the file and the cluster's state alone: do not ask the brokers to "
    "validate the changes (validate_only).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    metavar="PLAN",
    help="Also save the plan to PLAN (JSON), for 'apply PLAN' to apply exactly it later, "
    "on this cluster, refusing the keys that changed meanwhile.",
)
@output_option(OutputFormat.TABLE, OutputFormat.JSON)
@_OVERRIDE_RULE
@connection_options
def plan(**options: Any) -> int:
    """Show what apply would change to make the cluster as FILE says, and the brokers'
    verdict on each change (sent with validate_only; nothing is changed).

    Exit 0: nothing to change; 3: changes needed (drift), all accepted by the brokers; 2: the
    file or a value is refused (by the checks here or by a broker); 4: a change breaks a rule
    (of FILE or of the cluster's clusters-file entry) that --override-rule does not name;
    1: the cluster could not be read or the brokers could not be asked.
    """
    from ._desired import plan as work

    return work(**options)


@cli.command()
@click.option(
    "--at", "at", required=True, metavar="TIME", help=f"The time to go back to ({_TIME})."
)
@selection_options()
@click.option(
    "--feed-table",
    type=click.Path(path_type=Path),
    metavar="PATH",
    help="The change feed's rows as JSON lines (watch --output json, or the stream written "
    "with format('json')): changes made by other tools too.",
)
@click.option(
    "--feed-cluster",
    metavar="NAME",
    help="The cluster's name in the feed's rows [default: the cluster's label here].",
)
@click.option(
    "--dry-run", is_flag=True, help="Let the brokers validate the restore; apply nothing."
)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@connection_options
def restore(**options: Any) -> int:
    """Put the overrides of the resources named (topics, --match REGEX, brokers, the cluster
    default, groups, client-metrics) back as they were at TIME.

    What each key was is read from the journal (changes made through this tool) and, with
    --feed-table, from the change feed's rows (changes made by any tool). A key with no known
    change since TIME is left as it is; what neither can tell (a secret's value, a change
    neither saw, a resource created since) is listed as unknown and left alone (exit 1). The
    restore is shown, confirmed unless --yes, applied, read back and recorded in the journal.
    """
    from ._restore import restore as work

    return work(**options)


@cli.command()
@click.argument("change_id", metavar="ID")
@click.option(
    "--change-set", "whole_set", is_flag=True, help="ID is a change set: undo all its changes."
)
@click.option("--force", is_flag=True, help="Also put back keys changed since (by anyone).")
@click.option("--dry-run", is_flag=True, help="Let the brokers validate the undo; apply nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@connection_options
def undo(**options: Any) -> int:
    """Put back what a recorded change (or, with --change-set, a whole change set) changed:
    old values set again, keys that were not set deleted, quotas restored, SCRAM credentials
    it created deleted (no password is kept: other SCRAM changes cannot be undone).

    Name the cluster the change was made on (checked by its id). A key whose value is no
    longer the one the change left is shown and left alone unless --force. The undo is shown,
    confirmed unless --yes, applied, read back and recorded in the journal itself.
    """
    from ._undo import undo as work

    return work(**options)


@cli.command()
@click.option(
    "--type",
    "-t",
    "kinds",
    multiple=True,
    metavar="KIND",
    help=f"What to watch (repeatable): {', '.join(RESOURCE_KINDS)} [default: topic].",
)
@click.option("--topic", "topics", multiple=True, metavar="NAME", help="Only these topics.")
@click.option("--match", metavar="REGEX", help="Topics whose whole name matches REGEX.")
@click.option("--include-internal", is_flag=True, help="Also internal topics.")
@click.option("--broker", "brokers", multiple=True, metavar="ID", help="Only these brokers.")
@click.option(
    "--client-metrics", multiple=True, metavar="NAME", help="Client-metrics resources to watch."
)
@click.option(
    "--all-clusters",
    is_flag=True,
    help="Every cluster of the clusters file (--clusters-file or its default).",
)
@click.option(
    "--interval",
    type=Seconds(min=0, min_open=True),
    default=WATCH_INTERVAL,
    show_default=True,
    help="Seconds between polls.",
)
@click.option(
    "--keep-going",
    is_flag=True,
    help="Never give up on a cluster that cannot be read (by default a single cluster ends "
    "watch when its first poll fails, or after 5 failed polls in a row).",
)
@click.option(
    "--broker-gone-after",
    type=Seconds(min=0, min_open=True),
    default=WATCH_BROKER_GONE_AFTER,
    show_default=True,
    metavar="SECONDS",
    help="Seconds a broker may be missing from the metadata (stopped, restarting) before it "
    "is reported removed; until then it is an error line and its keys are kept.",
)
@click.option(
    "--max-per-poll",
    type=click.IntRange(min=1),
    metavar="N",
    help="Describe at most N resources a poll, in turn (new ones and ones whose last read "
    "failed first); the others keep their last values until their turn: fresher with more, "
    "cheaper with fewer. Default: every resource at every poll.",
)
@click.option(
    "--stats",
    is_flag=True,
    help="After each poll, print on stderr what it cost: its time, the requests it sent and "
    "the bytes it received, and the resources it read.",
)
@output_option(OutputFormat.TABLE, OutputFormat.JSON)
@connection_options
def watch(**options: Any) -> int:
    """Print config changes as they happen, until Ctrl-C.

    Every --interval seconds the cluster (or every cluster of the clusters file, with
    --all-clusters) is read and compared with the poll before: one line per override added,
    removed or changed, per topic or broker that appears or goes, per quota or SCRAM change
    (--type quota, --type scram_user). A cluster or resource that cannot be read prints an
    error line on stderr and is never reported as removed. Sensitive values are never shown.
    The first poll is the baseline. --output json prints one JSON object per line.
    """
    from ._watch import watch as work

    return work(**options)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True)
@click.option("--allow-writes", is_flag=True, help="Allow changes (read-only without it).")
@click.option(
    "--allowed-host",
    "allowed_hosts",
    metavar="NAME",
    multiple=True,
    help="Also answer requests whose Host names NAME (a reverse proxy's; NAME:PORT for that "
    "port only; repeatable). Other names than the address it listens on are refused (421), "
    "against DNS rebinding.",
)
@click.option(
    "--password-hash-env",
    metavar="VAR",
    help="Log in with the 'user:$argon2id$...' entry in this environment variable.",
)
@click.option(
    "--password-hash-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Log in with the 'user:$argon2id$...' entries of this file (one a line).",
)
@click.option(
    "--trust-proxy-user-header",
    metavar="HEADER",
    help="A reverse proxy authenticates users and names them in this header.",
)
@click.option(
    "--journal",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The journal's SQLite file, where applies are recorded and the history page reads "
    "[default: $KAFKA_CONFIG_ADMIN_JOURNAL, else $XDG_DATA_HOME/kafka-config-admin/"
    "journal.sqlite].",
)
@click.option(
    "--live-interval",
    type=Seconds(min=0.5),
    default=5.0,
    show_default=True,
    help="Seconds within which a change shows on a live page (the cluster is read more often).",
)
@click.option(
    "--live-max-per-poll",
    type=click.IntRange(min=1),
    metavar="N",
    help="Describe at most N resources at each read of a live page, in turn (new ones and ones "
    "whose last read failed first): a change then shows within ceil(resources / N) "
    "intervals; cheaper with fewer. Default: every resource at every read.",
)
@click.option(
    "--session-minutes",
    type=Seconds(min=1),
    default=30.0,
    show_default=True,
    help="A session ends after this long without a request.",
)
@click.option(
    "--hash-password",
    is_flag=True,
    help="Read a password on standard input, print its argon2 hash for a password entry, exit.",
)
@connection_options
def web(**options: Any) -> int:
    """Start the web config editor at http://HOST:PORT (until Ctrl-C).

    It shows the clusters of the clusters file (or the one --bootstrap-server names). It is
    read-only unless --allow-writes. Bound to an address other than 127.0.0.1 it needs
    authentication: password entries (--password-hash-env/--password-hash-file) or a trusted
    reverse proxy's user header.
    """
    from ._web import web as work

    return work(**options)
