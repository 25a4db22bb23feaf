"""The GC pause: nested blocks resume the collector once, as it was before the outermost."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from kafka_config_admin._net.gc import gc_paused


@pytest.fixture(autouse=True)
def _restore_gc() -> Iterator[None]:
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


def test_nested_pauses_resume_only_when_the_outermost_ends() -> None:
    gc.enable()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off_and_errors_still_resume() -> None:
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
