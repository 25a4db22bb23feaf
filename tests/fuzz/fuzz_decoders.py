"""An atheris (libFuzzer) run over every decoded message: ``nox -s fuzz``.

    python -m tests.fuzz.fuzz_decoders -max_total_time=120 -timeout=5 -rss_limit_mb=2048

The first byte of an input picks the message and version (every response of every
``ApiCodec``, and the response header, as the hypothesis tests in
``tests/unit/test_protocol_fuzz.py`` find them); the rest is decoded through a memo kept for
the whole run. Any exception other than ``ProtocolError`` is a crash, and so is a valid message
decoded right after an input that decodes otherwise through that memo than alone (what a
malformed input left in the memo must never change a later answer).
libFuzzer reports hangs (``-timeout``) and memory (``-rss_limit_mb``) itself. The seeds are
valid messages drawn from each message's schema.
"""

from __future__ import annotations

import contextlib
import pathlib
import sys
import warnings
from typing import Any

import atheris
from hypothesis.errors import NonInteractiveExampleWarning

with atheris.instrument_imports(include=["kafka_config_admin"]):
    from kafka_config_admin import ProtocolError
    from kafka_config_admin._protocol import Memo
    from tests.unit.test_protocol_fuzz import DECODED, valid_messages

SEEDS_PER_MESSAGE = 8

MEMO = Memo()
SEEDS: list[list[tuple[bytes, dict[str, Any]]]] = []
inputs = 0


def draw_seeds() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        for message, version in DECODED:
            seeds = [valid_messages(message, version).example() for _ in range(SEEDS_PER_MESSAGE)]
            SEEDS.append([(data, message.decode(version, data)) for data in seeds])


def test_one_input(data: bytes) -> None:
    global inputs
    inputs += 1
    if not data:
        return
    index = data[0] % len(DECODED)
    message, version = DECODED[index]
    with contextlib.suppress(ProtocolError):
        message.decode(version, data[1:], memo=MEMO)
    valid, alone = SEEDS[index][inputs % SEEDS_PER_MESSAGE]
    if message.decode(version, valid, memo=MEMO) != alone:
        raise AssertionError(f"{message.name} v{version}: a valid message decodes otherwise")


def write_corpus(directory: str) -> None:
    """Seed inputs, each prefixed with the byte that picks its message."""
    path = pathlib.Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    for index, seeds in enumerate(SEEDS):
        for number, (data, _) in enumerate(seeds):
            (path / f"seed-{index}-{number}").write_bytes(bytes([index]) + data)


def main() -> None:
    draw_seeds()
    for message, version in DECODED:  # the generated decoders, instrumented for coverage
        message.decode(version, SEEDS[DECODED.index((message, version))][0][0])
        atheris.instrument_func(message._decoders[version])
    args = [arg for arg in sys.argv if not arg.startswith("--corpus=")]
    corpus = next((arg[9:] for arg in sys.argv if arg.startswith("--corpus=")), None)
    if corpus is not None:
        write_corpus(corpus)
        args.append(corpus)
    atheris.Setup(args, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
