"""Request header v1/v2 and response header v0/v1 (v2/v1 for flexible API versions)."""

from __future__ import annotations

import struct

from .._exceptions import ProtocolError
from ._schema import skip_tagged_fields

_REQUEST_HEADER = struct.Struct(">hhih")
_CORRELATION_ID = struct.Struct(">i")


def encode_request_header(
    api_key: int, api_version: int, correlation_id: int, client_id: str | None, *, flexible: bool
) -> bytes:
    """The header; ClientId stays an INT16-length nullable string even in v2."""
    client = b"" if client_id is None else client_id.encode()
    header = (
        _REQUEST_HEADER.pack(
            api_key, api_version, correlation_id, -1 if client_id is None else len(client)
        )
        + client
    )
    return header + b"\x00" if flexible else header  # v2: an empty tagged-field section


def decode_response_header(
    data: bytes | memoryview, offset: int, *, flexible: bool
) -> tuple[int, int]:
    """(correlation id, offset of the body)."""
    try:
        (correlation_id,) = _CORRELATION_ID.unpack_from(data, offset)
        offset += 4
        if flexible:
            offset = skip_tagged_fields(bytes(data), offset)
    except (struct.error, IndexError, ValueError) as error:
        raise ProtocolError(f"malformed response header: {error}") from None
    return correlation_id, offset
