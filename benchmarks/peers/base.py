"""What every measured client offers. A workload a client cannot do raises NotSupported."""

from __future__ import annotations

from typing import Any, ClassVar


class NotSupported(Exception):
    """This client cannot do the workload; the message says why."""


class Peer:
    """One client, open on one cluster. Methods may be sync or async.

    ``notes`` says where a client did the workload differently (e.g. legacy alter).
    """

    notes: ClassVar[dict[str, str]] = {}

    async def open(self, bootstrap: str) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def w1_describe_all(self, topics: list[str]) -> Any:
        """W1: every config of every topic, with synonyms and documentation."""
        raise NotSupported("not implemented")

    async def w2_describe_one(self, topic: str) -> Any:
        """W2: one topic's configs (called 1,000 times in a row)."""
        raise NotSupported("not implemented")

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        """W3: set retention.ms on every topic, incrementally where the client can."""
        raise NotSupported("not implemented")

    async def w4_concurrent(self, topics: list[str]) -> None:
        """W4: 50 describe calls of one topic each, concurrently from one client."""
        raise NotSupported("not implemented")
