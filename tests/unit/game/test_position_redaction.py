"""A game started from a position (docs/game-records.md) states every face-down Rage card in its
``GameStarted``: the events any viewer reads show each holder's cards to him alone (how many to
everyone else), as the ``RageDrawn`` events of a game played from its start do."""

from __future__ import annotations

import msgspec

from services.game.engines import engine_for
from services.game.rules.dice import PlayerId, Role, Seat
from services.game.rules.dice import events as ev
from services.game.rules.ruleset import ruleset_of

SEATS = [
    Seat(player=PlayerId("p1"), role=Role.SHERIFF, character="paul_regret"),  # type: ignore[arg-type]
    Seat(player=PlayerId("p2"), role=Role.RENEGADE, character="pixie_pete"),  # type: ignore[arg-type]
    Seat(player=PlayerId("p3"), role=Role.OUTLAW, character="willy_the_kid"),  # type: ignore[arg-type]
    Seat(player=PlayerId("p4"), role=Role.OUTLAW, character="rose_doolan"),  # type: ignore[arg-type]
]


def test_face_down_rage_cards_of_a_position_are_their_holders_alone() -> None:
    engine = engine_for(ruleset_of(["UA2", "UA3"]))
    position = msgspec.convert(
        {
            "players": [
                {"player": "p2", "life": 7, "rage": ["r01", "r05", "r09"]},
                {"player": "p3", "life": 6, "rage": ["r13"]},
            ],
            "active_player": "p1",
            "turn": 4,
            "turn_ended": True,
            "rage_deck": {"discard": ["r02"], "pair": ["r05", "r09"], "lost": {"p2": 2}},
        },
        ev.Position,
    )
    game = engine.start(SEATS, position)
    started = game.events[0]

    def seen_by(viewer: str | None) -> dict:  # type: ignore[type-arg]
        return engine.redact_event(started, lambda seat: seat != viewer, own=lambda seat: seat == viewer)

    public = seen_by(None)["position"]
    assert [list(p["rage"]) for p in public["players"]] == [[None, None, None], [None]]
    assert list(public["rage_deck"]["pair"]) == [None, None]
    assert list(public["rage_deck"]["discard"]) == ["r02"]  # the discards are face up
    pixie = seen_by("p2")["position"]
    assert [list(p["rage"]) for p in pixie["players"]] == [["r01", "r05", "r09"], [None]]
    assert list(pixie["rage_deck"]["pair"]) == ["r05", "r09"]
    outlaw = seen_by("p3")["position"]
    assert [list(p["rage"]) for p in outlaw["players"]] == [[None, None, None], ["r13"]]
    assert list(outlaw["rage_deck"]["pair"]) == [None, None]
    for card in ("r01", "r05", "r09", "r13"):
        assert card not in str(engine.redact_event(started, lambda seat: True))
