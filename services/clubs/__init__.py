"""Clubs and the roles people hold in them (issue 11, "Roles, each scoped to a club").

A layer of its own just above ``services.accounts`` (it uses accounts' sessions and invites) and
below the games and leagues that will check its roles: a separate package rather than a part of
accounts, because accounts is *who* someone is and this is *what they may do where*, and the
games will import this without needing the password or session machinery. Docs:
docs/accounts.md ("Clubs and roles") and docs/permissions.md.
"""
