"""Login names and display names: how they are normalised and what they may be.

A login name is typed to log in, so it is kept simple: NFKC (a full-width ``Ａ`` is ``A``),
trimmed, 3-40 letters, digits and ``. _ -``, and unique ignoring case (``login_key``, its
case-folded form, is what the database keeps unique). A display name is shown to people: NFC,
trimmed, 1-100 characters, no control characters (the same set as the API's bounds: C0, DEL,
C1, line separators, bidi overrides and isolates, lone surrogates).
"""

from __future__ import annotations

import re
import unicodedata

from services.accounts.errors import InvalidAccountInput

LOGIN_MIN = 3
LOGIN_MAX = 40
DISPLAY_NAME_MAX = 100

CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
"""C0 (NUL, ESC, newlines), DEL, C1, line/paragraph separators, bidi embeddings, overrides and
isolates, surrogates: as services/game/edge/bounds.py."""
_LOGIN = re.compile(r"[\w.\-]")
NO_CONTROLS = "no control characters (NUL, ESC, newlines, C1, bidi overrides or isolates)"


def has_control(text: str) -> bool:
    return CONTROLS.search(text) is not None


def normalise_login(text: str, field: str = "login") -> str:
    """The login name as stored and shown, or ``InvalidAccountInput`` naming the rule."""
    if has_control(text):
        raise InvalidAccountInput(field, f"a login name has {NO_CONTROLS}")
    login = unicodedata.normalize("NFKC", text).strip()
    if not LOGIN_MIN <= len(login) <= LOGIN_MAX:
        raise InvalidAccountInput(field, f"a login name has {LOGIN_MIN} to {LOGIN_MAX} characters")
    if not all(_LOGIN.fullmatch(c) for c in login):
        raise InvalidAccountInput(field, "a login name has only letters, digits and . _ -")
    return login


def login_key(login: str) -> str:
    """What makes two login names the same person's: case ignored (``Alice`` is ``alice``)."""
    return unicodedata.normalize("NFKC", normalise_login(login).casefold())


def normalise_display_name(text: str, field: str = "display_name") -> str:
    if has_control(text):
        raise InvalidAccountInput(field, f"a display name has {NO_CONTROLS}")
    name = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(name) <= DISPLAY_NAME_MAX:
        raise InvalidAccountInput(field, f"a display name has 1 to {DISPLAY_NAME_MAX} characters")
    return name
