"""What a viewer may see of a game: the one redaction every channel uses.

REST, GraphQL queries and subscriptions, the event feed, exports and log lines all call
``redact_event`` / ``redact_state``; nothing else decides what is hidden.

A player's role is visible to a viewer when
- the viewer is that player, or the scorekeeper of a table game (who entered the seats);
- the rules reveal it to all: the Sheriff's (4–8 players), every role of a 3-player game,
  an eliminated player's, and every role once the game is over.
A face-down card (Undead or Alive's Rage cards) is visible to its holder alone: the viewer who
is that seat, the scorekeeper of a table game (who entered it), and everyone once the game is
over; never through a public role (the Sheriff's cards are as hidden as anyone's).
The dice seed is never in the event stream before the game ends (``SeedRevealed``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from services.game.application.lifecycle import BOT_NAME, GameCreated, GameMode
from services.game.application.session import GameSession, GameStatus


class Viewer(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str | None = None
    """The member looking, if a player of this game; None for anybody else."""
    scorekeeper: bool = False
    """The organiser who keeps a table game's record."""


PUBLIC = Viewer()


def role_visible(session: GameSession, viewer: Viewer, seat: str) -> bool:
    game = session.game
    if game is None:
        return False
    if session.status is GameStatus.ENDED:
        return True
    if viewer.scorekeeper and session.mode is GameMode.TABLE:
        return True
    if viewer.member_id is not None and session.seat_members.get(seat) == viewer.member_id:
        return True
    return session.engine.role_public(game, seat)  # what the rules have shown to all


def own_visible(session: GameSession, viewer: Viewer, seat: str) -> bool:
    """Whether ``viewer`` may see ``seat``'s own face-down cards (UA2's Rage)."""
    if session.game is None:
        return False
    if session.status is GameStatus.ENDED:
        return True
    if viewer.scorekeeper and session.mode is GameMode.TABLE:
        return True
    return viewer.member_id is not None and session.seat_members.get(seat) == viewer.member_id


def redact_event(session: GameSession, viewer: Viewer, event: msgspec.Struct) -> dict[str, Any]:
    """The event as JSON-ready data, with what ``viewer`` may not see set to null."""
    if not session.engine.owns(event):
        return msgspec.to_builtins(event)  # lifecycle facts hide nothing (the seed comes at the end)
    return session.engine.redact_event(
        event,
        lambda seat: not role_visible(session, viewer, seat),
        own=lambda seat: own_visible(session, viewer, seat),
    )


def _ruleset_view(created: GameCreated) -> dict[str, Any]:
    """A game's ruleset: public from its creation (every player knows the rules at the table)."""
    ruleset = created.ruleset
    return {"modules": list(ruleset.modules), "data": dict(ruleset.data), "text": ruleset.text}


def redact_state(session: GameSession, viewer: Viewer) -> dict[str, Any]:
    """The game's current state as ``viewer`` may see it."""
    game = session.game
    out: dict[str, Any] = {
        "game_id": session.game_id,
        "mode": session.mode.value,
        "status": session.status.value,
        "version": session.version,
        "player_count": session.created.player_count,
        "seed_commitment": session.created.seed_commitment,
        "seed": session.seed_revealed,
        "game_type": session.created.game_type.value,
        "ruleset": _ruleset_view(session.created),
        "fairness": None if session.created.derivations is None else session.created.derivations.text,
        "context": msgspec.to_builtins(session.created.context),
        "joined": [{"member_id": j.member_id, "name": j.name} for j in session.joined],
        "replacements": [
            {
                "seat": r.player,
                "replaced": r.replaced,
                "member_id": r.member_id,
                "name": r.name,
                "turn": r.turn,
                "version": version,
            }
            for version, r in session.replacements
        ],
    }
    if game is None:
        out.update(players=[], arrow_pile=None, active_player=None, turn=None, awaiting=None, result=None)
        return out
    view = session.engine.view(
        game,
        lambda seat: role_visible(session, viewer, seat),
        own=lambda seat: own_visible(session, viewer, seat),
    )
    names = session.member_names()
    view["players"] = [
        {
            "id": p["id"],
            "member_id": session.seat_members.get(p["id"]),
            "name": BOT_NAME
            if p["id"] in session.bot_seats
            else names.get(session.seat_members.get(p["id"], ""), None),
            "bot": p["id"] in session.bot_seats,
            **{k: v for k, v in p.items() if k != "id"},
        }
        for p in view["players"]
    ]
    out.update(view)
    out.update(_duel_view(game, out["players"]))
    return out


def _duel_view(game: Any, players: list[dict[str, Any]]) -> dict[str, Any]:
    """UA1's public side: each seat's wound tokens (face up once drawn, RULINGS-expansions
    §UA1) and the duel on now (challenger, target, who throws next), with the tokens' pile
    size. Nothing face down: no token in the pile is named. A game without UA1 adds nothing."""
    state = getattr(game, "state", None)
    duels = getattr(state, "duels", None)
    if duels is None:
        return {}
    turn = state.turn
    now = duels.now(turn.number) if turn is not None else None
    for p in players:
        p["wound_tokens"] = [f.value for f in duels.held.get(p["id"], [])]
    on = now is not None and now.thrower is not None and bool(now.challenged)
    return {
        "duel": {
            "wound_pile": sum(duels.pile.values()),
            "challenger": turn.player if on else None,
            "target": now.challenged[-1] if on else None,
            "thrower": now.thrower if on else None,
            "challenged": list(now.challenged) if now is not None else [],
        }
    }
