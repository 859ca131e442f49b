"""Login names, display names and the password policy: what is normalised, what is refused and
how the refusal says so."""

from __future__ import annotations

import asyncio

import pytest

from services.accounts.errors import InvalidAccountInput
from services.accounts.names import login_key, normalise_display_name, normalise_login
from services.accounts.passwords import Passwords, check_password
from services.accounts.settings import AccountSettings


@pytest.mark.parametrize(
    ("typed", "stored", "key"),
    [
        ("  Alice ", "Alice", "alice"),
        ("ＡＬＩＣＥ", "ALICE", "alice"),  # full-width letters are the same name
        ("jean-luc.p_2", "jean-luc.p_2", "jean-luc.p_2"),
        ("Straße", "Straße", "strasse"),
        ("Ötzi", "Ötzi", "ötzi"),
    ],
)
def test_a_login_name_is_normalised_and_keyed_ignoring_case(typed: str, stored: str, key: str) -> None:
    assert normalise_login(typed) == stored
    assert login_key(typed) == key


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        ("al", "3 to 40"),
        ("a" * 41, "3 to 40"),
        ("al ice", "letters, digits"),
        ("al@ice", "letters, digits"),
        ("al\x00ice", "control characters"),
        ("alice\n", "control characters"),
        ("al\u202eice", "control characters"),
    ],
)
def test_a_login_name_outside_its_rule_is_refused_naming_the_rule(typed: str, rule: str) -> None:
    with pytest.raises(InvalidAccountInput) as refused:
        normalise_login(typed)
    assert refused.value.field == "login" and rule in refused.value.rule


def test_a_display_name_is_trimmed_and_bounded_and_has_no_controls() -> None:
    assert normalise_display_name("  Calamity Janet ") == "Calamity Janet"
    assert normalise_display_name("x" * 100) == "x" * 100
    bad_names = (("", "1 to 100"), ("   ", "1 to 100"), ("x" * 101, "1 to 100"), ("a\x1b[31m", "control"))
    for bad, rule in bad_names:
        with pytest.raises(InvalidAccountInput) as refused:
            normalise_display_name(bad)
        assert refused.value.field == "display_name" and rule in refused.value.rule


@pytest.mark.parametrize(
    ("password", "rule"),
    [("123456789", "at least 10"), ("x" * 201, "at most 200"), ("tab\tin the middle", "control"),
     ("0123456789\x7f", "control")],
)  # fmt: skip
def test_the_password_policy_says_why(password: str, rule: str) -> None:
    with pytest.raises(InvalidAccountInput) as refused:
        check_password(password, "new_password")
    assert refused.value.field == "new_password" and rule in str(refused.value)


def test_a_password_at_the_bounds_is_allowed_whatever_it_is_made_of() -> None:
    for password in ("a" * 10, "é" * 200, "correct horse battery staple", "🐎🐎🐎🐎🐎🐎🐎🐎🐎🐎"):
        assert check_password(password) == password


def test_passwords_are_hashed_with_argon2id_and_a_rehash_is_needed_when_parameters_rise() -> None:
    small = AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
    passwords = Passwords(small)
    hashed = asyncio.run(passwords.hash("correct horse battery"))
    assert hashed.startswith("$argon2id$v=19$m=8192,t=1,p=1$")
    assert asyncio.run(passwords.verify(hashed, "correct horse battery"))
    assert not asyncio.run(passwords.verify(hashed, "correct horse batterY"))
    assert not asyncio.run(passwords.verify("not a hash", "correct horse battery"))
    assert not passwords.needs_rehash(hashed)
    raised = AccountSettings(argon2_time_cost=2, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
    assert Passwords(raised).needs_rehash(hashed)


def test_settings_are_read_from_the_environment() -> None:
    env = {"BANG_SESSION_DAYS": "7", "BANG_LOGIN_FAILURES_PER_NAME": "2/minute"}
    settings = AccountSettings.from_env(env)
    assert settings.session_lifetime.days == 7 and settings.failed_logins_per_name == "2/minute"
    assert AccountSettings.from_env({}).session_lifetime.days == 30
