"""The public summary shows counts for hands and the deck, and roles only where public."""

from __future__ import annotations

import json

from services.game.rules.cards.summary import summary

from .rig import DEFAULT_SEATS, P, pass_, play, rigged
from .test_properties import random_game


def test_the_summary_hides_hands_and_roles() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang", "barrel"]})
    play(game, 0, n["barrel"])
    play(game, 0, n["bang"], 1)
    s = summary(game.state)
    assert s["awaiting"] == {"player": "p2", "decision": "respond_shot", "count": 1}
    assert s["players"]["p1"]["role"] == "sheriff"
    assert s["players"]["p2"]["role"] is None and s["players"]["p3"]["role"] is None
    assert s["players"]["p1"]["hand"] == 5 and s["players"]["p1"]["in_play"] == ["barrel:QS"]
    text = json.dumps(s)
    for c in game.state.player(P[1]).hand:
        assert f'"{c}"' not in text
    pass_(game, 1)
    assert summary(game.state)["players"]["p2"]["life"] == 3


def test_at_the_end_every_role_is_shown_and_the_winners_listed() -> None:
    game, _ = random_game(3, 5)
    s = summary(game.state)
    assert s["status"] == "ended" and s["awaiting"] is None
    assert all(p["role"] is not None for p in s["players"].values())
    assert s["winners"] and s["winning_side"] in ("law", "outlaws", "renegade")
