"""Every command has a text form that reads back to the same command (logs, errors, records)."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import MalformedCommand
from services.game.rules.cards.vocabulary import TABLE, CardId, PlayerId

from .test_properties import random_game

P1, P3 = PlayerId("p1"), PlayerId("p3")
EXAMPLES: list[tuple[cmd.Command, str]] = [
    (cmd.ShuffleDeck(player=TABLE, order=(CardId(3), CardId(1), CardId(2))), "table shuffle 3 1 2"),
    (cmd.PickRandomCard(player=TABLE, card=CardId(7)), "table random 7"),
    (cmd.ChooseDrawSource(player=P1), "p1 draw-from deck"),
    (cmd.ChooseDrawSource(player=P1, from_discard=True), "p1 draw-from discard"),
    (cmd.ChooseDrawSource(player=P1, from_player=P3), "p1 draw-from p3"),
    (cmd.KitReturn(player=P1, card=CardId(9)), "p1 kit-return 9"),
    (cmd.ChooseDrawResult(player=P1, card=CardId(9)), "p1 draw-result 9"),
    (cmd.PlayCard(player=P1, card=CardId(12)), "p1 play 12"),
    (cmd.PlayCard(player=P1, card=CardId(12), target=P3), "p1 play 12 p3"),
    (cmd.PlayCard(player=P1, card=CardId(50), target=P3, target_card=CardId(64)), "p1 play 50 p3 64"),
    (cmd.EndPlay(player=P1), "p1 end"),
    (cmd.Discard(player=P1, cards=(CardId(4), CardId(5))), "p1 discard 4 5"),
    (cmd.Respond(player=P1, card=CardId(30)), "p1 respond 30"),
    (cmd.UseBarrel(player=P1, card=CardId(64)), "p1 barrel 64"),
    (cmd.UseBarrel(player=P1), "p1 barrel jourdonnais"),
    (cmd.UseSidKetchum(player=P1, cards=(CardId(1), CardId(2))), "p1 sid 1 2"),
    (cmd.Pass(player=P1), "p1 pass"),
    (cmd.PickStoreCard(player=P1, card=CardId(8)), "p1 pick 8"),
    (cmd.OrderDiscards(player=P1, cards=(CardId(8), CardId(9))), "p1 order 8 9"),
]


@pytest.mark.parametrize(("command", "text"), EXAMPLES)
def test_text_form_and_back(command: cmd.Command, text: str) -> None:
    assert str(command) == text
    assert cmd.parse_command(text) == command


@pytest.mark.parametrize(
    "text", ["p1", "p1 fly", "p1 play", "p1 play x", "p1 play 81", "p1 respond 0", "p1 play 12 45"]
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedCommand):
        cmd.parse_command(text)


def test_every_command_of_random_games_reads_back() -> None:
    log: list[cmd.Command] = []
    for seed in range(5):
        random_game(11 + seed, 4 + seed % 4, log)
    kinds = {type(c) for c in log}
    assert len(kinds) >= 10
    for c in log:
        assert cmd.parse_command(str(c)) == c
