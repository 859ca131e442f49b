"""Accounts: who is who (issue 11). A person's login name, display name and argon2id password
hash; their sessions (revocable bearer tokens with expiry); invite links that let them create
the account and set their own password. See docs/accounts.md.

Modules, one idea each: ``names`` (normalising and bounding names), ``passwords`` (the policy
and argon2id), ``sessions`` (session tokens), ``throttle`` (failed logins), ``events`` (the
facts), ``service`` (the commands), ``http`` (REST), ``schema`` and ``migrations/`` (tables).
Nothing here imports a game engine or the game service.
"""
