"""Result objects: one future per resource, and helpers over all of them.

A call returns its result at once; the client's task group fills the futures in. A failed
resource fails only its own future, so results stay usable when some resources fail. A result
is keyed by what its call is about: a ``ConfigResource`` for the config calls, a topic name for
the topic calls (the ``K`` of ``ResourceFuture[K, T]``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .._models.configs import Config, ConfigResource

# The topic models load with the first topic call, not with the client: the result classes
# below name them as strings (ruff does not read a string in a base class as a use).
if TYPE_CHECKING:
    from .._models.topics import (  # noqa: F401
        CreatedTopic,
        TopicDescription,
        TopicPartition,
    )

__all__ = [
    "AlterConfigsResult",
    "AlterPartitionReassignmentsResult",
    "CreatePartitionsResult",
    "CreateTopicsResult",
    "DescribeConfigsResult",
    "DescribeTopicsResult",
    "ResourceFuture",
]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class ResourceFuture(Generic[K, T]):
    """The outcome of one resource in a call: await it, or ask ``done()``/``result()``.

    ``resource`` is the key it belongs to (a ``ConfigResource``, a topic name, ...).

    Any number of tasks may await the same future; cancelling one waiter leaves the future
    and the other waiters untouched.
    """

    __slots__ = ("_done", "_event", "_exception", "_result", "resource")

    def __init__(self, resource: K) -> None:
        self.resource = resource
        self._done = False
        # Made only when someone waits before the outcome is known: most futures of a large
        # call are done before anybody looks at them.
        # An asyncio Event, not anyio's: the transport is asyncio's, and anyio's Event costs
        # ten times as much to make, once per call that waits.
        self._event: asyncio.Event | None = None
        self._result: T | None = None
        self._exception: BaseException | None = None

    def done(self) -> bool:
        """Whether the outcome is known."""
        return self._done

    def result(self) -> T:
        """The value once done; raises the resource's error if it failed."""
        self._require_done()
        if self._exception is not None:
            raise self._exception
        return self._result  # type: ignore[return-value]

    def exception(self) -> BaseException | None:
        """The resource's error once done, or None if it succeeded."""
        self._require_done()
        return self._exception

    async def wait(self) -> T:
        """Wait for the outcome and return it (or raise the resource's error)."""
        await self._wait_done()
        return self.result()

    async def _wait_done(self) -> None:
        if not self._done:
            if self._event is None:
                self._event = asyncio.Event()
            await self._event.wait()

    def __await__(self) -> Generator[Any, None, T]:
        return self.wait().__await__()

    def __repr__(self) -> str:
        if not self.done():
            state = "pending"
        elif self._exception is not None:
            state = f"failed: {type(self._exception).__name__}"
        else:
            state = "done"
        return f"<ResourceFuture {self.resource} {state}>"

    def _require_done(self) -> None:
        if not self._done:
            raise asyncio.InvalidStateError(f"the outcome for {self.resource} is not known yet")

    def _set_result(self, value: T) -> None:
        if not self._done:
            self._result = value
            self._finish()

    def _set_exception(self, error: BaseException) -> None:
        if not self._done:
            self._exception = error
            self._finish()

    def _finish(self) -> None:
        self._done = True
        if self._event is not None:
            self._event.set()


class _Result(Generic[K, T]):
    """What every call's result shares: one future per key, and ways to wait."""

    def __init__(self, resources: Iterable[K]) -> None:
        # Not ResourceFuture[K, T](...): calling a subscripted generic costs more than the future.
        self.values: Mapping[K, ResourceFuture[K, T]] = {
            resource: ResourceFuture(resource) for resource in resources
        }

    async def wait(self) -> None:
        """Wait until every resource has an outcome; raises nothing."""
        for future in self.values.values():
            if not future._done:  # most are done by the time anyone waits
                await future._wait_done()

    async def _all(self) -> dict[K, T]:
        await self.wait()
        return {resource: future.result() for resource, future in self.values.items()}

    def errors(self) -> dict[K, BaseException]:
        """The resources that failed so far, with their errors."""
        return {
            resource: future._exception
            for resource, future in self.values.items()
            if future.done() and future._exception is not None
        }

    def _settled(self) -> bool:
        return all(future._done for future in self.values.values())

    def _fail_pending(self, error_for: Callable[[K], BaseException]) -> None:
        for resource, future in self.values.items():
            if not future.done():
                future._set_exception(error_for(resource))

    def __repr__(self) -> str:
        done = sum(future.done() for future in self.values.values())
        return (
            f"<{type(self).__name__} {done}/{len(self.values)} done, {len(self.errors())} failed>"
        )


class _ValuesResult(_Result[K, T]):
    """A result whose futures carry values: ``all()`` gathers them into a dict."""

    async def all(self) -> dict[K, T]:
        """Wait for every key; return their values or raise the first error (in order).

        The other futures stay readable after the error.
        """
        return await self._all()


class DescribeConfigsResult(_ValuesResult[ConfigResource, Config]):
    """The result of :meth:`AdminClient.describe_configs`.

    ``values[resource]`` is a :class:`ResourceFuture` of that resource's :class:`Config`;
    ``await result.all()`` gives ``dict[ConfigResource, Config]`` or raises the first error.
    """

    #: Answers the client is still filling with documentation (``AdminClient._document``):
    #: the engine's deadline and closing leave them to it, whose deadline is the same.
    _documenting: frozenset[ConfigResource] = frozenset()

    def _fail_pending(self, error_for: Callable[[ConfigResource], BaseException]) -> None:
        if not self._documenting:
            super()._fail_pending(error_for)
            return
        for resource, future in self.values.items():
            if not future.done() and resource not in self._documenting:
                future._set_exception(error_for(resource))


class _ChangeResult(_Result[K, None]):
    """A change's result: ``values[key]`` completes once that key is done."""

    async def all(self) -> None:
        """Wait for every key; raise the first error (in request order)."""
        await self.wait()
        for future in self.values.values():
            if future._exception is not None:
                raise future._exception


class AlterConfigsResult(_ChangeResult[ConfigResource]):
    """The result of an alter call: ``values[resource]`` completes once that resource is done.

    ``await result.all()`` returns when every resource was altered, or raises the first error.
    """


class CreatePartitionsResult(_ChangeResult[str]):
    """The result of :meth:`AdminClient.create_partitions`, keyed by topic name."""


class AlterPartitionReassignmentsResult(_ChangeResult["TopicPartition"]):
    """The result of :meth:`AdminClient.alter_partition_reassignments`, keyed by
    :class:`TopicPartition`."""


class DescribeTopicsResult(_ValuesResult[str, "TopicDescription"]):
    """The result of :meth:`AdminClient.describe_topics`, keyed by topic name.

    ``values[name]`` is a :class:`ResourceFuture` of that topic's :class:`TopicDescription`
    (a topic the cluster lacks fails with :class:`UnknownTopicOrPartitionError`).
    """


class CreateTopicsResult(_ValuesResult[str, "CreatedTopic"]):
    """The result of :meth:`AdminClient.create_topics`, keyed by topic name.

    ``values[name]`` is a :class:`ResourceFuture` of that topic's :class:`CreatedTopic`;
    ``await result.all()`` gives ``dict[str, CreatedTopic]`` or raises the first error.
    """
