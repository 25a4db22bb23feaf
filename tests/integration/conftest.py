"""Fixtures the integration tests share."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin._transport import Transport


@pytest.fixture
def sent_requests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The API of every request the transport writes (to the real broker) during the test."""
    sent: list[str] = []
    submit = Transport.submit

    def counting_submit(self: Transport, *args: Any, **kwargs: Any) -> bool:
        written = submit(self, *args, **kwargs)
        if written:
            sent.append(args[1].name)
        return written

    monkeypatch.setattr(Transport, "submit", counting_submit)
    return sent
