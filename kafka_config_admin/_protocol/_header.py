"""Request header v1/v2 and response header v0/v1, declared like the bodies.

A flexible API version uses request header v2 and response header v1; any other version uses
request header v1 and response header v0.
"""

from __future__ import annotations

from ._schema import Field, Message

REQUEST_HEADER = Message(
    "RequestHeader",
    (1, 2),
    2,
    (
        Field("request_api_key", "int16"),
        Field("request_api_version", "int16"),
        Field("correlation_id", "int32"),
        # Kept an INT16-length string in v2 ("flexibleVersions": "none") so that a broker of any
        # age can read the header of a request it may not understand.
        Field("client_id", "string", versions=(1, None), nullable=(1, None), compact=False),
    ),
)

RESPONSE_HEADER = Message("ResponseHeader", (0, 1), 1, (Field("correlation_id", "int32"),))


def encode_request_header(
    api_key: int, api_version: int, correlation_id: int, client_id: str | None, *, flexible: bool
) -> bytes:
    """The request header for an API version that is (or is not) flexible."""
    header = {
        "request_api_key": api_key,
        "request_api_version": api_version,
        "correlation_id": correlation_id,
        "client_id": client_id,
    }
    return REQUEST_HEADER.encode(2 if flexible else 1, header)


def decode_response_header(
    data: bytes | memoryview, offset: int, *, flexible: bool
) -> tuple[int, int]:
    """(correlation id, offset of the body) of the response header at ``offset``."""
    header, end = RESPONSE_HEADER.decode_from(1 if flexible else 0, data, offset)
    return header["correlation_id"], end
