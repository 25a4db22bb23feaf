"""Fixtures the integration tests share."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin._net.transport import Transport


class SentRequests(list[str]):
    """The API of each request written, in order; ``nodes``: the broker each one went to."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[int] = []

    def clear(self) -> None:
        super().clear()
        self.nodes.clear()


@pytest.fixture
def sent_requests(monkeypatch: pytest.MonkeyPatch) -> SentRequests:
    """Every request the transport writes (to the real broker) during the test."""
    sent = SentRequests()
    submit = Transport.submit

    def counting_submit(self: Transport, *args: Any, **kwargs: Any) -> bool:
        written = submit(self, *args, **kwargs)
        if written:
            sent.append(args[1].name)
            sent.nodes.append(args[0])
        return written

    monkeypatch.setattr(Transport, "submit", counting_submit)
    return sent
