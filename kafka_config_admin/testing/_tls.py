"""TLS for test clusters: certificates made at start-up, and the listeners that use them.

Every cluster started with ``tls=True`` gets fresh material (nothing is downloaded or kept): a
certificate authority, the brokers' certificate for ``127.0.0.1`` (as Kafka's PEM key store: key
and chain in one file) and a client certificate for mutual TLS whose key is encrypted with a
random passphrase. Three listeners are added beside PLAINTEXT, SASL_PLAINTEXT and CONTROLLER:

- ``SSL``: TLS with server authentication only; the principal is ``ANONYMOUS`` (super user);
- ``MTLS``: TLS with ``ssl.client.auth=required``; the client certificate's ``CN`` (``admin``)
  is the principal;
- ``SASL_SSL``: SASL over TLS with PLAIN, SCRAM-SHA-256/512 (the SASL users) and OAUTHBEARER,
  validated by Kafka's unsecured JWT validator meant for testing (see :func:`unsecured_jwt`).

The key needs ``cryptography`` (the ``test`` extra); it is imported only when TLS is asked for.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

from ._errors import BackendUnavailableError
from ._probe import LOOPBACK
from ._settings import ADMIN_USER, ALICE_USER

__all__ = [
    "TLS_LISTENERS",
    "TlsFiles",
    "TlsListener",
    "TlsPorts",
    "add_tls_listeners",
    "make_tls_files",
    "new_broker_keystore",
    "unsecured_jwt",
]

#: A TLS listener of a ``tls=True`` cluster: server-authenticated TLS, mutual TLS, SASL over TLS.
TlsListener = Literal["SSL", "MTLS", "SASL_SSL"]
"""The name of a TLS listener of a ``tls=True`` cluster."""
#: The TLS listeners of a ``tls=True`` cluster, in the order their ports are planned.
TLS_LISTENERS: tuple[TlsListener, ...] = ("SSL", "MTLS", "SASL_SSL")
#: The SASL mechanisms of the SASL_SSL listener.
SASL_SSL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")

#: The subject of the client certificate: ``CN=admin`` maps to the super user ``User:admin``.
CLIENT_COMMON_NAME = ADMIN_USER.username
_BROKER_COMMON_NAME = "kafka-config-admin test broker"
_VALIDITY = datetime.timedelta(days=2)

_KEYSTORE = "broker-keystore.pem"
_TRUSTSTORE = "ca.pem"


@dataclass(frozen=True)
class TlsPorts:
    """The host ports of one node's TLS listeners."""

    ssl: int
    mtls: int
    sasl_ssl: int

    def port(self, listener: TlsListener) -> int:
        """The port of ``listener``."""
        return {"SSL": self.ssl, "MTLS": self.mtls, "SASL_SSL": self.sasl_ssl}[listener]


@dataclass(frozen=True)
class TlsFiles:
    """The PEM files of one cluster's TLS material, all in :attr:`directory`.

    Attributes:
        directory: where the files are (removed when the cluster stops).
        ca_certificate: the authority that signed the brokers' and the client's certificates:
            what a client trusts (``ssl.truststore.location``, ``cafile=``).
        broker_keystore: the brokers' key and certificate chain (Kafka's PEM key store); the
            certificate names ``127.0.0.1`` only, so ``localhost`` is a host name mismatch.
        client_certificate: the client certificate (``CN=admin``) for the MTLS listener.
        client_key: its private key, encrypted with ``client_key_passphrase`` (PKCS#8).
        client_keystore: key and certificate in one file, for Kafka's ``ssl.keystore.location``
            with ``ssl.keystore.type=PEM`` and ``ssl.key.password``.
        client_key_passphrase: the passphrase of the client key (random per cluster).
        ca_key: the authority's private key (PKCS#8, unencrypted), to sign a new broker
            certificate with (:func:`new_broker_keystore`).
    """

    directory: Path
    ca_certificate: Path
    broker_keystore: Path
    client_certificate: Path
    client_key: Path
    client_keystore: Path
    client_key_passphrase: str
    ca_key: Path

    def broker_files(self) -> dict[str, Path]:
        """The files a broker reads, by the name the broker configuration gives them."""
        return {_KEYSTORE: self.broker_keystore, _TRUSTSTORE: self.ca_certificate}


def _crypto() -> Any:
    """The ``cryptography`` modules this file uses, or a clear error where it is missing."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import pkcs12
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        raise BackendUnavailableError(
            "tls=True makes its certificates with the 'cryptography' package: install the "
            "'test' extra (pip install 'kafka-config-admin[test]')"
        ) from None
    return SimpleNamespace(
        x509=x509,
        hashes=hashes,
        serialization=serialization,
        ec=ec,
        pkcs12=pkcs12,
        ExtendedKeyUsageOID=ExtendedKeyUsageOID,
        NameOID=NameOID,
    )


def _certificate(subject: str, key: Any, issuer: tuple[Any, Any] | None, extensions: Any) -> Any:
    """A certificate of ``subject`` for ``key``, signed by ``issuer`` (name, key) or itself."""
    c = _crypto()
    name = c.x509.Name([c.x509.NameAttribute(c.NameOID.COMMON_NAME, subject)])
    issuer_name, issuer_key = issuer or (name, key)
    now = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)
    builder = (
        c.x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(c.x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + _VALIDITY)
    )
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical=critical)
    return builder.sign(issuer_key, c.hashes.SHA256())


def _leaf(usage: Any, *more: Any) -> list[tuple[Any, bool]]:
    c = _crypto()
    return [
        (c.x509.BasicConstraints(ca=False, path_length=None), True),
        *((extension, False) for extension in more),
        (c.x509.ExtendedKeyUsage([usage]), False),
    ]


def _broker_certificate(ca: Any, ca_key: Any) -> tuple[Any, Any]:
    """A new broker key and its certificate for ``127.0.0.1``, signed by the CA."""
    c = _crypto()
    key = c.ec.generate_private_key(c.ec.SECP256R1())
    address = c.x509.SubjectAlternativeName([c.x509.IPAddress(ipaddress.ip_address(LOOPBACK))])
    extensions = _leaf(c.ExtendedKeyUsageOID.SERVER_AUTH, address)
    return key, _certificate(_BROKER_COMMON_NAME, key, (ca.subject, ca_key), extensions)


def _pem(cert: Any) -> bytes:
    return cert.public_bytes(_crypto().serialization.Encoding.PEM)  # type: ignore[no-any-return]


def make_tls_files(directory: Path) -> TlsFiles:
    """Make a CA, the broker certificate and a client certificate, as PEM files in ``directory``."""
    c = _crypto()
    ser = c.serialization
    ca_key = c.ec.generate_private_key(c.ec.SECP256R1())
    ca = _certificate(
        "kafka-config-admin test CA",
        ca_key,
        None,
        [(c.x509.BasicConstraints(ca=True, path_length=0), True)],
    )
    broker_key, broker = _broker_certificate(ca, ca_key)
    client_key = c.ec.generate_private_key(c.ec.SECP256R1())
    client = _certificate(
        CLIENT_COMMON_NAME,
        client_key,
        (ca.subject, ca_key),
        _leaf(c.ExtendedKeyUsageOID.CLIENT_AUTH),
    )
    passphrase = f"kca-key-{secrets.token_urlsafe(12)}"
    # Kafka's PEM key store reads PKCS#8 keys: plain, or encrypted with ssl.key.password.
    plain = (ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption())
    broker_key_pem = broker_key.private_bytes(*plain)
    client_key_pem = client_key.private_bytes(
        ser.Encoding.PEM,
        ser.PrivateFormat.PKCS8,
        ser.BestAvailableEncryption(passphrase.encode()),
    )
    directory.mkdir(parents=True, exist_ok=True)
    files = TlsFiles(
        directory=directory,
        ca_certificate=directory / _TRUSTSTORE,
        broker_keystore=directory / _KEYSTORE,
        client_certificate=directory / "client.pem",
        client_key=directory / "client-key.pem",
        client_keystore=directory / "client-keystore.pem",
        client_key_passphrase=passphrase,
        ca_key=directory / "ca-key.pem",
    )
    contents = {
        files.ca_certificate: _pem(ca),
        files.broker_keystore: broker_key_pem + _pem(broker) + _pem(ca),
        files.client_certificate: _pem(client),
        files.client_key: client_key_pem,
        files.client_keystore: client_key_pem + _pem(client),
        files.ca_key: ca_key.private_bytes(*plain),
    }
    # Readable by the broker whatever user it runs as (a container's); the directory holding
    # them is private to this cluster and removed when it stops.
    for path, data in contents.items():
        path.write_bytes(data)
    return files


def new_broker_keystore(files: TlsFiles, name: str, password: str) -> tuple[Path, int]:
    """A new PKCS12 key store for the brokers, ``name`` in :attr:`TlsFiles.directory`: a new
    key and certificate from the same CA, with the subject and address of the first (Kafka
    refuses a key store whose names changed), its key and store protected by ``password``.

    Returns the path as the JVM backend's brokers see it (they read the directory in place)
    and the new certificate's serial number, which a TLS handshake then shows.
    """
    c = _crypto()
    ca = c.x509.load_pem_x509_certificate(files.ca_certificate.read_bytes())
    ca_key = c.serialization.load_pem_private_key(files.ca_key.read_bytes(), None)
    key, cert = _broker_certificate(ca, ca_key)
    encryption = c.serialization.BestAvailableEncryption(password.encode())
    path = files.directory / name
    path.write_bytes(
        c.pkcs12.serialize_key_and_certificates(b"broker", key, cert, [ca], encryption)
    )
    return path, int(cert.serial_number)


def add_tls_listeners(props: dict[str, str], ports: TlsPorts, *, files_dir: str) -> None:
    """Add the SSL, MTLS and SASL_SSL listeners to a node's ``server.properties``.

    ``files_dir`` is where the broker finds the files of :meth:`TlsFiles.broker_files`.
    """
    listeners = [f"{name}://{LOOPBACK}:{ports.port(name)}" for name in TLS_LISTENERS]
    props["listeners"] = ",".join([*listeners, props["listeners"]])
    props["advertised.listeners"] = ",".join([props["advertised.listeners"], *listeners])
    props["listener.security.protocol.map"] += ",SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL"
    props.update(_tls_properties(files_dir))


def _tls_properties(files_dir: str) -> dict[str, str]:
    users = (ADMIN_USER, ALICE_USER)
    plain_users = " ".join(f'user_{u.username}="{u.password}"' for u in users)
    scram_module = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
    prefix = "listener.name.sasl_ssl"
    return {
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": f"{files_dir}/{_KEYSTORE}",
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": f"{files_dir}/{_TRUSTSTORE}",
        "listener.name.mtls.ssl.client.auth": "required",
        # The client certificate's CN is the principal: CN=admin is User:admin, a super user.
        "ssl.principal.mapping.rules": "RULE:^CN=([^,]+)$/$1/,DEFAULT",
        f"{prefix}.sasl.enabled.mechanisms": ",".join(SASL_SSL_MECHANISMS),
        f"{prefix}.plain.sasl.jaas.config": (
            f"org.apache.kafka.common.security.plain.PlainLoginModule required {plain_users};"
        ),
        f"{prefix}.scram-sha-256.sasl.jaas.config": scram_module,
        f"{prefix}.scram-sha-512.sasl.jaas.config": scram_module,
        # With no server callback handler set, Kafka validates OAUTHBEARER tokens with its
        # unsecured validator (OAuthBearerUnsecuredValidatorCallbackHandler), for tests only:
        # a JWT with "alg": "none", no signature, a "sub" (the principal) and an "exp".
        f"{prefix}.oauthbearer.sasl.jaas.config": (
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
            f'unsecuredLoginStringClaim_sub="{ADMIN_USER.username}";'
        ),
    }


def unsecured_jwt(subject: str, *, lifetime: int = 3600, **claims: Any) -> str:
    """An unsecured JWT (``"alg": "none"``) that the SASL_SSL listener's validator accepts.

    ``subject`` is the principal (``admin`` is a super user, ``alice`` has no ACLs); a negative
    ``lifetime`` (seconds) makes an expired token, which the broker refuses.
    """
    now = int(time.time())
    while True:
        # Kafka's validator decodes each part with Java's basic Base64 decoder, where JWTs use
        # the URL-safe alphabet: a random "jti" makes parts that read the same in both.
        payload: Mapping[str, Any] = {
            "jti": secrets.token_hex(secrets.randbelow(8) + 4),
            "sub": subject,
            "iat": now,
            "exp": now + lifetime,
            **claims,
        }
        parts = [_b64(json.dumps({"alg": "none"})), _b64(json.dumps(payload))]
        if not any(char in part for part in parts for char in "+/-_"):
            return ".".join(parts) + "."


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode().rstrip("=")
