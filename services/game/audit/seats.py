"""The audit of the seats that changed hands in a game (``SeatReplaced``).

The rules never see a replacement: the seat, its role and its hand stay what they were, so the
rules replay cannot check it. This does, from the stream alone: each replacement was sent by an
organiser's command (the league checked his current role in the game's club before it sent it;
a player's or anybody else's is not accepted), in an online game between its start and its end,
names as replaced the member who held the seat then, and gives it to nobody who held another
seat (a bot: to nobody at all). Who held which seat, turn by turn, is read from the same events.
"""

from __future__ import annotations

from services.game.application.lifecycle import SeatReplaced, SeatsDealt, seat_id
from services.game.audit.stream import GameStream

AUTHORISED = "organiser:"
"""How the stream names the actor of a command an organiser (or the league's referee) sent."""


def check_replacements(stream: GameStream) -> tuple[str | None, str]:
    """(the first problem, in words, or None; the words the passed replay adds)."""
    if not stream.replacements:
        return None, ""
    dealt = None if stream.dealt is None else stream.dealt.event
    members = dealt.members if isinstance(dealt, SeatsDealt) else ()
    holders: dict[str, str] = {seat_id(i): m for i, m in enumerate(members)}
    seats = {seat_id(i) for i in range(0 if stream.created is None else stream.created.player_count)}
    said = []
    for stored in stream.replacements:
        event = stored.event
        assert isinstance(event, SeatReplaced)
        where = f"event {stored.number}: seat {event.player}"
        if not (stored.actor or "").startswith(AUTHORISED):
            return f"{where} was replaced by {stored.actor or 'nobody named'}, who may not replace a seat", ""
        if not stream.is_online:
            return f"{where} was replaced in a table game, whose scorekeeper enters every seat", ""
        if stream.started is None or stored.number < stream.started.number:
            return f"{where} was replaced before the game started", ""
        if event.player not in seats:
            return f"{where}: the game has no such seat", ""
        held = holders.get(event.player)
        if (held or "") != event.replaced:
            return f"{where} names {event.replaced or 'a bot'} as replaced, but {held or 'a bot'} held it", ""
        if event.member_id is not None and event.member_id in holders.values():
            return f"{where} went to {event.name}, who held another seat of the game", ""
        if event.member_id is None:
            holders.pop(event.player, None)
        else:
            holders[event.player] = event.member_id
        who = "a bot" if event.member_id is None else event.name
        said.append(f"{event.player} to {who} in turn {event.turn}")
    n = len(said)
    return None, f"; {n} seat{'s' if n > 1 else ''} replaced by an organiser ({', '.join(said)})"
