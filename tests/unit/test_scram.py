"""SCRAM credentials: RFC 5802 salting against RFC 7677's example, checks, no secret shown."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from kafka_config_admin import (
    InvalidArgumentError,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin._models.scram import salted_password

# RFC 7677, section 3: user "user", password "pencil".
RFC7677_SALT = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
RFC7677_AUTH_MESSAGE = (
    b"n=user,r=rOprNGfwEbeRWgbNEkqO,"
    b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,"
    b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
)
RFC7677_PROOF = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
RFC7677_SERVER_SIGNATURE = "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def test_salted_password_gives_rfc7677_proof_and_server_signature() -> None:
    """The example's proof and server signature follow from the salted password alone."""
    salted = salted_password("pencil", RFC7677_SALT, 4096, ScramMechanism.SCRAM_SHA_256)
    client_key = hmac.digest(salted, b"Client Key", "sha256")
    stored_key = hashlib.sha256(client_key).digest()
    signature = hmac.digest(stored_key, RFC7677_AUTH_MESSAGE, "sha256")
    proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
    assert base64.b64encode(proof).decode() == RFC7677_PROOF
    server_key = hmac.digest(salted, b"Server Key", "sha256")
    server_signature = hmac.digest(server_key, RFC7677_AUTH_MESSAGE, "sha256")
    assert base64.b64encode(server_signature).decode() == RFC7677_SERVER_SIGNATURE


def rfc5802_hi(password: bytes, salt: bytes, iterations: int, hash_name: str) -> bytes:
    """RFC 5802's Hi() written out: U1 = HMAC(p, salt + INT(1)), Ui = HMAC(p, Ui-1), XORed."""
    u = hmac.digest(password, salt + b"\x00\x00\x00\x01", hash_name)
    result = int.from_bytes(u)
    for _ in range(iterations - 1):
        u = hmac.digest(password, u, hash_name)
        result ^= int.from_bytes(u)
    return result.to_bytes(len(u))


@pytest.mark.parametrize("mechanism", [ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512])
def test_upsertion_salts_the_password_as_rfc5802_says(mechanism: ScramMechanism) -> None:
    upsertion = UserScramCredentialUpsertion(
        "alice", mechanism.mechanism_name, "pässword", iterations=4096, salt=b"NaCl"
    )
    expected = rfc5802_hi("pässword".encode(), b"NaCl", 4096, mechanism.hash_name)
    assert upsertion.salted_password == expected
    assert (
        len(expected)
        == {ScramMechanism.SCRAM_SHA_256: 32, ScramMechanism.SCRAM_SHA_512: 64}[mechanism]
    )
    assert upsertion.mechanism is mechanism and upsertion.iterations == 4096


def test_each_upsertion_gets_a_fresh_random_salt() -> None:
    first = UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "same")
    second = UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "same")
    assert len(first.salt) == 32 and first.salt != second.salt
    assert first.salted_password != second.salted_password
    assert first.iterations == 4096  # kafka-configs.sh's default


def test_no_password_or_salted_password_is_ever_shown() -> None:
    upsertion = UserScramCredentialUpsertion("alice", "SCRAM-SHA-512", "hunter2-secret")
    shown = repr(upsertion) + str(upsertion)
    assert "hunter2" not in shown
    assert upsertion.salted_password.hex() not in shown and repr(upsertion.salt) not in shown
    assert not hasattr(upsertion, "password")
    assert "alice" in shown and "SCRAM_SHA_512" in shown


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"password": ""}, "the password is empty"),
        ({"password": b"hunter2-secret"}, "must be a str, got bytes"),
        ({"iterations": 4095}, "4096-16384"),
        ({"iterations": 16385}, "4096-16384"),
        ({"iterations": 5000.0}, "must be an int"),
        ({"iterations": True}, "must be an int"),
        ({"user": ""}, "non-empty str"),
        ({"user": 7}, "non-empty str"),
        ({"mechanism": "SCRAM-SHA-1"}, "not a ScramMechanism"),
        ({"mechanism": 0}, "not UNKNOWN"),
        ({"mechanism": 9}, "not UNKNOWN"),
        ({"salt": b""}, "salt must be non-empty bytes"),
    ],
)
def test_bad_upsertions_are_refused_without_the_password(
    kwargs: dict[str, object], message: str
) -> None:
    arguments: dict[str, object] = {
        "user": "alice",
        "mechanism": "SCRAM-SHA-256",
        "password": "hunter2-secret",
    } | kwargs
    user, mechanism, password = (arguments.pop(k) for k in ("user", "mechanism", "password"))
    with pytest.raises(InvalidArgumentError, match=message) as caught:
        UserScramCredentialUpsertion(user, mechanism, password, **arguments)  # type: ignore[arg-type]
    assert "hunter2" not in str(caught.value)


def test_mechanisms_by_name_id_or_member() -> None:
    for given in ("SCRAM-SHA-512", "scram_sha_512", 2, ScramMechanism.SCRAM_SHA_512):
        assert UserScramCredentialDeletion("bob", given).mechanism is ScramMechanism.SCRAM_SHA_512
    assert ScramMechanism.SCRAM_SHA_256.mechanism_name == "SCRAM-SHA-256"
    with pytest.raises(InvalidArgumentError, match="no hash"):
        _ = ScramMechanism.UNKNOWN.hash_name
