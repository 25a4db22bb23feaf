"""The operation base every Kafka area builds on (no I/O).

An operation knows its codec, checks its input before anything is sent, says where each of its
keys must go, builds the request body for a group of keys at the version the broker
negotiated, and turns a response into one outcome per key. Routing, retries and deadlines
belong to the engine (``_engine``); ``route`` groups keys into the requests it sends.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from .._exceptions import BrokerError, error_for_code
from .._protocol import ApiCodec, Memo

__all__ = ["Operation", "route"]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def route(
    resources: Iterable[K],
    per_request: int,
    destination: Callable[[K], int | None],
    kept_apart: Callable[[K], object] | None = None,
) -> list[tuple[int | None, list[K]]]:
    """The requests to send: per destination, keys in runs of at most ``per_request``.

    One request per broker, never one per key; a large call is split so that the broker works
    on one request while the client decodes the one before (they share a connection). Keys
    for which ``kept_apart`` differs never share a request.
    """
    groups: dict[tuple[int | None, object], list[K]] = {}
    for resource in resources:
        apart = None if kept_apart is None else kept_apart(resource)
        groups.setdefault((destination(resource), apart), []).append(resource)
    return [
        (node, group[start : start + per_request])
        for (node, _), group in groups.items()
        for start in range(0, len(group), per_request)
    ]


class Operation(Generic[K, T]):
    """One API call about a list of keys: its codec, request bodies and per-key outcomes.

    ``K`` is what the call has one future for (a ``ConfigResource``, a topic name...), ``T``
    the value each future gets. The client routes the keys by :meth:`destination`, sends each
    group's :meth:`body`, and reads :meth:`outcomes`; retries and deadlines are its own.
    """

    codec: ApiCodec
    #: From this version on the broker expects the client to honour ThrottleTimeMs itself.
    throttle_from_version: int
    #: Whether a call may be sent as several requests to one broker (see ``route``).
    splittable = False
    #: Whether the call changes the cluster: a change sent and never answered may have been
    #: applied, so its timeout is an ``OutcomeUnknownError``.
    mutates = False
    #: Whether sending the same request twice, to two brokers, is harmless (a read, or a change
    #: that leaves the same state however often it is applied): such a request that a broker
    #: leaves unanswered is sent again to another one (``Engine``'s hedging).
    hedged = False
    #: Errors of a key that are final for this call although others retry on them.
    not_retried: tuple[type[BrokerError], ...] = ()
    #: The response field listing one result per key.
    _results_key = "responses"

    @property
    def resources(self) -> list[K]:
        """The keys of the call, in the order the caller gave them."""
        raise NotImplementedError

    def destination(self, resource: K) -> int | None:
        """The broker id a key must be sent to, or None when any broker will do."""
        return None

    def kept_apart(self, resource: K) -> object:
        """Keys for which this differs go in different requests (None for all: no matter)."""
        return None

    def body(self, resources: Sequence[K], version: int) -> dict[str, Any]:
        raise NotImplementedError

    def outcomes(
        self, resources: Sequence[K], response: Mapping[str, Any]
    ) -> Iterator[tuple[K, T | BrokerError]]:
        """One outcome per key of the request; a key left unanswered is an error.

        Results are matched to keys by :meth:`answered` (the key a result is about), by
        position when the broker answered in the order asked.
        """
        results = response[self._results_key]
        answered = [self.answered(result) for result in results]
        if answered == list(resources):
            for resource, result in zip(resources, results, strict=True):
                yield resource, self._outcome(resource, result)
            return
        wanted = dict.fromkeys(resources, True)
        for key, result in zip(answered, results, strict=True):
            if wanted.pop(key, False):  # an answer for something we did not ask: ignore it
                yield key, self._outcome(key, result)
        for resource in wanted:
            yield resource, self.unanswered(resource)

    def answered(self, result: Mapping[str, Any]) -> K:
        """The key one result of the response is about."""
        raise NotImplementedError

    def unanswered(self, resource: K) -> BrokerError:
        return BrokerError(
            "the broker's response has no answer for this resource",
            resource=self.subject(resource),
        )

    def _outcome(self, resource: K, result: Mapping[str, Any]) -> T | BrokerError:
        code = result["error_code"]
        if code:
            return error_for_code(
                code,
                self.redact(resource, result["error_message"]),
                resource=self.subject(resource),
            )
        return self.value(resource, result)

    def value(self, resource: K, result: Mapping[str, Any]) -> T:
        """The value of one successful result."""
        raise NotImplementedError

    def subject(self, resource: K) -> object:
        """What errors about a key name: ``BrokerError.resource``, and ``str()`` of it in
        timeout messages. The key itself unless a richer name exists (a topic name is
        ``ConfigResource(TOPIC, name)``, so that errors read "topic 'orders'")."""
        return resource

    @property
    def memo(self) -> Memo | None:
        """Where the response may find items decoded before (``Struct(shared=True)``)."""
        return None

    def redact(self, resource: K, message: str | None) -> str | None:
        """The broker's message with any secret this call sent for the key hidden."""
        return message
