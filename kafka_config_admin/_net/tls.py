"""Why a TLS connection failed, in words a user can act on.

Python's ``ssl`` reports a failed handshake in OpenSSL's terms, and with TLS 1.3 a broker that
requires a client certificate lets the handshake finish and refuses afterwards, which aiokafka
only sees as a connection closed. :func:`tls_error` turns an ``ssl`` exception into a
:class:`TlsError` naming the broker and the cause; :func:`probe_tls` connects once more, sends
one request and returns the ``ssl`` exception that a refused connection ends with.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import struct

from .._exceptions import TlsError

__all__ = ["probe_tls", "tls_error"]

# X509_V_ERR_HOSTNAME_MISMATCH and X509_V_ERR_IP_ADDRESS_MISMATCH.
_NAME_MISMATCH_CODES = frozenset({62, 64})
#: Alerts a broker sends when it wants a client certificate it did not get, or distrusts it
#: (Java sends bad_certificate for both).
_CLIENT_CERTIFICATE_ALERTS = frozenset(
    {
        "TLSV13_ALERT_CERTIFICATE_REQUIRED",
        "SSLV3_ALERT_BAD_CERTIFICATE",
        "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
        "TLSV1_ALERT_UNKNOWN_CA",
    }
)
#: Errors that mean the other end does not speak TLS at all.
_NOT_TLS = frozenset({"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"})

#: ApiVersions v0 with correlation id 0 and no client id: any broker answers it.
_API_VERSIONS_V0 = struct.pack(">ihhih", 10, 18, 0, 0, -1)


def tls_error(error: ssl.SSLError, address: str) -> TlsError:
    """The :class:`TlsError` for an ``ssl`` failure talking to ``address`` (``host:port``)."""
    if isinstance(error, ssl.SSLCertVerificationError):
        detail = error.verify_message or error.reason or "verification failed"
        if error.verify_code in _NAME_MISMATCH_CODES:
            return TlsError(
                address,
                "hostname-mismatch",
                f"the broker's certificate is not valid for the name used ({detail}): connect "
                "by a name or address the certificate lists",
            )
        return TlsError(
            address,
            "untrusted-certificate",
            f"the broker's certificate is not trusted ({detail}): give the client the CA "
            "certificate that signed it (ssl_context, ssl.truststore.location)",
        )
    reason = error.reason or ""
    if reason in _CLIENT_CERTIFICATE_ALERTS:
        return TlsError(
            address,
            "client-certificate-refused",
            "the broker requires a client certificate it trusts (mutual TLS): none was sent, "
            f"or the broker does not trust it ({reason}); load a certificate and key signed by "
            "a CA the broker trusts (ssl_context, ssl.keystore.location)",
        )
    if reason in _NOT_TLS:
        return TlsError(
            address,
            "not-tls",
            f"the other end does not speak TLS ({reason}): is it a PLAINTEXT or SASL_PLAINTEXT "
            "listener?",
        )
    return TlsError(address, "handshake-failed", f"{reason or type(error).__name__}: {error}")


async def probe_tls(
    host: str, port: int, context: ssl.SSLContext, seconds: float
) -> TlsError | None:
    """Connect with ``context``, send one request, and return the TLS failure it ends in.

    None when the connection works, or fails for a reason that is not TLS's.
    """
    address = f"{host}:{port}"
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(seconds):
            try:
                reader, writer = await asyncio.open_connection(
                    host, port, ssl=context, server_hostname=host
                )
            except (ConnectionResetError, asyncio.IncompleteReadError):
                # A Kafka listener without TLS reads the handshake as a request far too big
                # and drops the connection.
                return TlsError(
                    address,
                    "not-tls",
                    "the connection was dropped during the TLS handshake: is it a PLAINTEXT or "
                    "SASL_PLAINTEXT listener?",
                )
            writer.write(_API_VERSIONS_V0)
            await writer.drain()
            await reader.read(4)
    except ssl.SSLError as error:
        return tls_error(error, address)
    except (OSError, TimeoutError):
        return None
    finally:
        if writer is not None:
            writer.close()
            # Let the TLS shutdown finish: a transport still closing when the loop ends warns.
            with contextlib.suppress(OSError, ssl.SSLError, TimeoutError):
                async with asyncio.timeout(1):
                    await writer.wait_closed()
    return None
