"""Make a cluster match a desired-state file: load it, plan, print the plan, check, apply.

    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 python examples/desired_state_apply.py kafka.yaml

1. load the YAML file (a mistake in it is one error naming the file, line and key);
2. read what the file is about from the cluster, with each config's type;
3. plan: the incremental operations that make the cluster as the file says, every value
   checked by the type the broker reports; the file's audit rules, evaluated;
4. print the plan, and stop with exit status 2 when it has problems (nothing is sent);
5. dry run: the brokers validate every change (``validate_only``: values, their
   AlterConfigPolicy) and apply nothing; stop with status 1 when any is refused;
6. apply, read back, and plan again: the new plan has nothing to do.

``--dry-run`` stops after step 5; ``--prune`` also deletes overrides the file does not name.
Without a file it applies ``examples/desired-state.yaml`` (topics ``desired-demo-*``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from kafka_config_admin import AdminClient
from kafka_config_admin.changeset import ApplyReport, apply_plan
from kafka_config_admin.desired import (
    DesiredStateError,
    Plan,
    evaluate_state,
    load_desired_state,
    make_plan,
)
from kafka_config_admin.state import read_state

DEMO = Path(__file__).with_name("desired-state.yaml")


def print_plan(plan: Plan) -> None:
    for problem in plan.problems:
        print(f"  problem: {problem}")
    for resource_plan in plan.resources:
        resource = resource_plan.resource
        print(f"  {resource.type.name} {resource.name!r}: {resource_plan.action.value}")
        for change in resource_plan.changes:
            shown = "[hidden]" if change.sensitive else change.value
            print(f"    {change.op.name:8} {change.key} = {shown}  (now: {change.current})")
        for skipped in resource_plan.skipped:
            print(f"    skipped  {skipped.key}: {skipped.reason}")


def print_report(report: ApplyReport) -> None:
    for outcome in report.outcomes:
        resource = outcome.resource
        detail = f": {type(outcome.error).__name__}: {outcome.error}" if outcome.error else ""
        print(f"  {resource.type.name} {resource.name!r}: {outcome.status.value}{detail}")


async def converge(bootstrap: str, path: Path, *, dry_run: bool, prune: bool) -> int:
    desired = load_desired_state(path)
    async with AdminClient(bootstrap) as admin:
        state = await read_state(admin, desired)
        plan = make_plan(desired, state, prune=prune)
        for violation in evaluate_state(desired.rules, state):
            print(f"rule broken now: {violation}")
        print(f"plan for {path.name}:")
        print_plan(plan)
        if plan.problems:
            print("the plan has problems: nothing sent")
            return 2
        if not plan.has_changes:
            print("the cluster already matches the file")
            return 0

        print("dry run (the brokers check each change and apply nothing):")
        checked = await apply_plan(admin, plan, dry_run=True)
        print_report(checked)
        if not checked.ok:
            print("a change was refused: nothing applied")
            return 1
        if dry_run:
            return 0

        print("apply:")
        report = await apply_plan(admin, plan)
        print_report(report)
        again = make_plan(desired, await read_state(admin, desired), prune=prune)
        print(f"plan after the apply: {'changes left' if again.has_changes else 'nothing to do'}")
        return 0 if report.ok and not again.has_changes else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("desired", nargs="?", type=Path, default=DEMO, help="a desired-state file")
    parser.add_argument("--dry-run", action="store_true", help="validate only, change nothing")
    parser.add_argument("--prune", action="store_true", help="delete overrides not in the file")
    args = parser.parse_args()
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    try:
        return asyncio.run(
            converge(bootstrap, args.desired, dry_run=args.dry_run, prune=args.prune)
        )
    except DesiredStateError as error:  # the file: every mistake, with its line
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
