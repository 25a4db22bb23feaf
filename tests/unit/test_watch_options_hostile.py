"""Hostile values for the options of issue 35's faces, refused before anything is sent.

``watch --max-per-poll``, ``--interval``, ``--broker-gone-after``; ``web --live-interval``,
``--live-max-per-poll``: each bad value is one ``error:`` line naming the option, exit code 2
(docs/change-feed.md, "exit code"), no traceback. The address is one nothing listens on: a
value that got through would end in a connection error (exit 1), not a usage error.
"""

from __future__ import annotations

import math

import pytest

from kafka_config_admin.cli import main
from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings

NOWHERE = ("--bootstrap-server", "127.0.0.1:1", "--timeout", "1")

BAD_COUNTS = ["0", "-1", "1.5", "abc", "", " ", "true", "1e3", "\u0663.\u0665", "0x10", "NaN"]
BAD_SECONDS = ["0", "-1", "abc", "", "nan", "NaN", "inf", "-inf", "1e400", "true"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    code = exited.value.code
    return code if isinstance(code, int) else 1, capsys.readouterr().err


def refused(capsys: pytest.CaptureFixture[str], option: str, *args: str) -> None:
    code, err = run(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert option in lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize("value", BAD_COUNTS)
def test_watch_max_per_poll_refuses_what_is_not_a_positive_integer(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    refused(capsys, "--max-per-poll", "watch", *NOWHERE, "--max-per-poll", value)


@pytest.mark.parametrize("value", BAD_COUNTS)
def test_web_live_max_per_poll_refuses_what_is_not_a_positive_integer(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    refused(capsys, "--live-max-per-poll", "web", *NOWHERE, "--live-max-per-poll", value)


@pytest.mark.parametrize("option", ["--interval", "--broker-gone-after"])
@pytest.mark.parametrize("value", BAD_SECONDS)
def test_watch_durations_refuse_what_is_not_a_finite_positive_number(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    # nan passed click's range (no comparison with it is true) and made the poll loop run
    # without pause (max(0, nan - elapsed) is 0); inf made it wait for ever after the baseline.
    refused(capsys, option, "watch", *NOWHERE, option, value)


@pytest.mark.parametrize("value", [*BAD_SECONDS, "0.4"])
def test_web_live_interval_refuses_what_is_not_a_finite_number_of_at_least_half_a_second(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    # inf started the editor, whose live stream then failed on int(inf * 1000).
    refused(capsys, "--live-interval", "web", *NOWHERE, "--port", "0", "--live-interval", value)


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_every_commands_timeout_refuses_what_is_not_a_finite_positive_number(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    refused(
        capsys,
        "--timeout",
        "describe",
        "--bootstrap-server",
        "127.0.0.1:1",
        "--timeout",
        value,
        "x",
    )


@pytest.mark.parametrize(
    ("interval", "bound"),
    [
        (math.nan, None),
        (math.inf, None),
        (0.0, None),
        (-1.0, None),
        (5.0, 0),
        (5.0, True),
        (5.0, 1.5),
    ],
)
def test_the_editors_settings_refuse_a_live_interval_or_bound_out_of_range(
    interval: float, bound: object
) -> None:
    # What an embedding program passes to the editor (the SDK face of the same options).
    settings = WebSettings(
        {"c": Connection(bootstrap_servers="127.0.0.1:1")},
        live_interval=interval,
        live_max_per_poll=bound,  # type: ignore[arg-type]
    )
    problem = settings.problem()
    assert problem is not None and "live page" in problem


@pytest.mark.parametrize("value", ["١٢", " 3 ", "1_000", "99999999999999999999"])
def test_watch_max_per_poll_takes_what_python_reads_as_a_whole_number_as_the_stream_does(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    # Unicode digits, spaces and underscores are read as int() reads them, by click and by
    # the Spark stream's maxPerPoll alike: the value reaches the poll (here a connection error).
    from kafka_config_admin.spark._options import parse_positive_int

    code, err = run(capsys, "watch", *NOWHERE, "--max-per-poll", value)
    assert code == 1 and "could not be read" in err, err
    assert parse_positive_int({"maxPerPoll": value}, "maxPerPoll") == int(value)
