"""A progress bar over a call's resources, on a terminal only."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from .. import AlterConfigsResult, DescribeConfigsResult, ResourceFuture
from ._output import stderr

if TYPE_CHECKING:
    from rich.progress import Progress

#: Fewer resources than this finish too fast for a bar to help.
PROGRESS_FROM = 50


async def settle(result: AlterConfigsResult | DescribeConfigsResult, doing: str) -> None:
    """Wait until every resource of ``result`` has its outcome; show a bar on a terminal."""
    futures: list[ResourceFuture[Any, Any]] = list(result.values.values())
    if len(futures) < PROGRESS_FROM or not stderr.is_terminal:
        await result.wait()
        return
    with progress_bar(doing) as progress:
        task = progress.add_task(doing, total=len(futures))
        for future in futures:
            if not future.done():
                progress.update(task, completed=sum(f.done() for f in futures))
                with contextlib.suppress(Exception):  # read from the future afterwards
                    await future
        progress.update(task, completed=len(futures))


def progress_bar(doing: str) -> Progress:
    """A bar on stderr that goes when done: what is being done, the bar, done/total, time.

    rich.progress is imported here, not with the command: only a terminal shows a bar.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(doing), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=stderr, transient=True)
