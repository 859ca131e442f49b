"""Card bots: they answer every question of random games at 4–8 players with a legal command,
they decide only from what their seat may know, and the heuristic bot plays its role."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import msgspec
import pytest

from services.game.bots.cards import HeuristicCardBot, Knowledge, RandomCardBot, SeatView
from services.game.bots.cards.heuristic import answer
from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.deck import DECK
from services.game.rules.cards.events import PlayerPosition, Position, Seat
from services.game.rules.cards.evolve import evolve
from services.game.rules.cards.game import Game
from services.game.rules.cards.legal import LegalCommands
from services.game.rules.cards.setup import starting_life
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    CardName,
    CharacterId,
    Decision,
    PlayerId,
    Role,
)
from services.game.simulation_cards import deal, game_seeds, play_game

P = [PlayerId(f"p{i}") for i in range(1, 9)]


# --- every question answered, legally -----------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_heuristic_bots_finish_every_game_answering_every_question(players: int) -> None:
    decisions: Counter[Decision] = Counter()
    for index in range(6):
        rng, table = game_seeds(players, index, players)
        record: list[cmd.Command] = []
        game = play_game(deal(players, table), HeuristicCardBot(), table, rng, record=record)
        assert game.result is not None
        # the engine accepted every command (play raises on an illegal one); replayed, they give the game
        replay = Game.start(list(game.events[0].seats), eight_players=players == 8)  # type: ignore[attr-defined]
        for command in record:
            if command.player != TABLE:
                decisions[replay.awaiting.decision] += 1  # type: ignore[union-attr]
            replay.play(command)
        assert replay.state == game.state
    assert {Decision.PLAY, Decision.RESPOND_SHOT, Decision.DISCARD, Decision.DYING} <= set(decisions)


def test_mixed_tables_of_random_and_heuristic_bots_finish() -> None:
    for index in range(12):
        rng, table = game_seeds(99, index, 4 + index % 4)
        seats = deal(4 + index % 4, table)
        heuristic, rand = HeuristicCardBot(), RandomCardBot()
        bots = {s.player: (heuristic if k % 2 else rand) for k, s in enumerate(seats)}
        game = play_game(seats, bots, table, rng)
        assert game.result is not None


def test_the_out_of_turn_questions_all_come_up_and_are_answered() -> None:
    seen: Counter[Decision] = Counter()
    for index in range(15):
        rng, table = game_seeds(7, index, 7)
        game = play_game(deal(7, table), _Spy(HeuristicCardBot(), seen), table, rng)
        assert game.is_over
    wanted = {
        Decision.RESPOND_INDIANS,
        Decision.RESPOND_DUEL,
        Decision.STORE_PICK,
        Decision.DRAW_SOURCE,
        Decision.KIT_RETURN,
        Decision.DRAW_RESULT,
    }
    assert wanted <= set(seen), wanted - set(seen)


class _Spy:
    def __init__(self, bot: HeuristicCardBot, seen: Counter[Decision]) -> None:
        self.bot, self.seen = bot, seen

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> cmd.Command:
        self.seen[question.decision] += 1
        return self.bot.choose(game, question, rng)


def test_a_random_bot_draws_a_big_discard_directly_and_legally() -> None:
    # 30 cards in hand at 1 life: listing C(30, 29)... or C(34, 33) discards is what it must not do
    seats = [
        Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.BART_CASSIDY),
        Seat(player=P[1], role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
        Seat(player=P[2], role=Role.RENEGADE, character=CharacterId.WILLY_THE_KID),
        Seat(player=P[3], role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
    ]
    missed = [c.id for c in DECK if c.name is CardName.MISSED]
    big = tuple(c.id for c in DECK if c.name in (CardName.BANG, CardName.BEER))[:30]
    rest = [c.id for c in DECK if c.id not in big and c.id not in missed]
    position = Position(
        players=(PlayerPosition(player=P[1], life=1, hand=big),),
        deck=(*missed, *rest),
        active=P[1],
    )
    game = Game.start(seats, position=position)
    game.play(cmd.EndPlay(player=P[1]))
    q = game.awaiting
    assert q is not None and q.decision is Decision.DISCARD and q.count == 31
    for seed in range(20):
        choice = RandomCardBot().choose(game, q, random.Random(seed))
        assert isinstance(choice, cmd.Discard) and choice in game.legal_commands()


def test_a_random_bot_picks_every_legal_play_sometimes() -> None:
    rng, table = game_seeds(5, 0)
    game = Game.start(deal(5, table))
    while (q := game.awaiting) is not None and q.decision is not Decision.PLAY:
        game.play(table.answer(game) if q.player == TABLE else RandomCardBot().choose(game, q, rng))
    assert q is not None
    legal = list(game.legal_commands())
    picks = Counter(RandomCardBot().choose(game, q, random.Random(i)) for i in range(60 * len(legal)))
    assert set(picks) == set(legal)
    assert max(picks.values()) < 3 * min(picks.values())


# --- a seat's knowledge only ----------------------------------------------------------------------


def _scramble_hidden(state: GameState, me: PlayerId, rng: random.Random) -> GameState:
    """The same position with what ``me`` cannot see changed: the other players' hands and the
    deck dealt again from their pooled cards (same sizes), the hidden roles of the others
    permuted among them."""
    other = state.clone()
    others = [p for p in other.players if p.id != me]
    pooled = [c for p in others for c in p.hand] + list(other.deck)
    rng.shuffle(pooled)
    for p in others:
        p.hand, pooled = pooled[: len(p.hand)], pooled[len(p.hand) :]
    other.deck = pooled
    hidden = [p for p in others if p.alive and p.role is not Role.SHERIFF]
    roles = [p.role for p in hidden]
    rng.shuffle(roles)
    for p, role in zip(hidden, roles, strict=True):
        p.role = role
    return other


def _scramble_event(event: ev.Event, shift: int) -> ev.Event:
    """An event with the cards only some may see replaced (what a bot must not read)."""

    def other(card: CardId) -> CardId:
        return CardId((card - 1 + shift) % 80 + 1)

    if isinstance(event, ev.DeckShuffled):
        return msgspec.structs.replace(event, order=tuple(reversed(event.order)))
    if isinstance(event, ev.HandsDealt):
        return msgspec.structs.replace(
            event, hands=tuple((p, tuple(other(c) for c in cards)) for p, cards in event.hands)
        )
    if isinstance(event, (ev.CardDrawn, ev.KitLooked, ev.KitReturned, ev.CardTaken)) and event.card:
        return msgspec.structs.replace(event, card=other(event.card))
    return event


@pytest.mark.parametrize("bot", [HeuristicCardBot, RandomCardBot])
def test_a_bots_choice_depends_only_on_what_its_seat_sees(bot: Callable[[], object]) -> None:
    checked = asked = 0
    for index in range(5):
        players = 4 + index % 4
        rng, table = game_seeds(31, index, players)
        game = play_game(deal(players, table), HeuristicCardBot(), table, rng)
        replay = Game.start(list(game.events[0].seats))  # type: ignore[attr-defined]
        for event in game.events[1:]:
            evolve(replay.state, event)
            replay.events.append(event)
            try:
                q = replay.awaiting
            except AssertionError:
                continue  # between automatic steps: nobody is asked
            if q is None or q.player == TABLE:
                continue
            asked += 1
            if asked % 3:
                continue  # a third of the questions: each check reads the whole record again
            mixed = _scramble_hidden(replay.state, q.player, random.Random(checked))
            mixed_events = [_scramble_event(e, 11 + checked % 7) for e in replay.events]
            real = bot().choose(Game(replay.state, list(replay.events)), q, random.Random(checked))  # type: ignore[attr-defined]
            other = bot().choose(Game(mixed, mixed_events), q, random.Random(checked))  # type: ignore[attr-defined]
            assert real == other, f"{q.describe()}: {real} vs {other}"
            checked += 1
    assert checked > 100


# --- the heuristic plays its role -------------------------------------------------------------------


def _ids(name: CardName) -> list[CardId]:
    return [c.id for c in DECK if c.name is name]


SEATS = [
    Seat(player=P[0], role=Role.SHERIFF, character=CharacterId.BART_CASSIDY),
    Seat(player=P[1], role=Role.OUTLAW, character=CharacterId.BLACK_JACK),
    Seat(player=P[2], role=Role.DEPUTY, character=CharacterId.PAUL_REGRET),
    Seat(player=P[3], role=Role.OUTLAW, character=CharacterId.EL_GRINGO),
    Seat(player=P[4], role=Role.RENEGADE, character=CharacterId.ROSE_DOOLAN),
]


def _at_play(active: PlayerId, hand: tuple[CardId, ...], **lives: int) -> Game:
    """A five-player game at ``active``'s phase 2 with ``hand`` (and two Missed! drawn)."""
    missed = _ids(CardName.MISSED)
    rest = [c.id for c in DECK if c.id not in hand and c.id not in missed]
    players = tuple(PlayerPosition(player=PlayerId(p), life=life) for p, life in lives.items())
    seat = next(s for s in SEATS if s.player == active)
    life = lives.get(active, starting_life(seat.role, seat.character))
    players += (PlayerPosition(player=active, life=life, hand=hand),)
    position = Position(players=players, deck=(*missed, *rest), active=active)
    game = Game.start(SEATS, position=position)
    assert game.awaiting is not None and game.awaiting.decision is Decision.PLAY
    return game


def _choice(game: Game, knowledge: Knowledge | None = None) -> cmd.Command:
    q = game.awaiting
    assert q is not None
    return answer(SeatView(game.state, q, knowledge or Knowledge()), random.Random(0))


def test_an_outlaw_shoots_the_sheriff_in_reach() -> None:
    bang = _ids(CardName.BANG)[0]
    game = _at_play(P[1], (bang,))
    assert _choice(game) == cmd.PlayCard(player=P[1], card=bang, target=P[0])


def test_a_deputy_never_shoots_the_sheriff_and_shoots_who_shot_him() -> None:
    bang = _ids(CardName.BANG)[0]
    game = _at_play(P[2], (bang,))
    knowledge = Knowledge()
    knowledge.note(P[3], P[0])  # p4 shot the Sheriff
    assert _choice(game, knowledge) == cmd.PlayCard(player=P[2], card=bang, target=P[3])
    knowledge = Knowledge()
    knowledge.note(P[1], P[0])
    knowledge.note(P[1], P[0])
    assert _choice(game, knowledge) == cmd.PlayCard(player=P[2], card=bang, target=P[1])


def test_the_renegade_spares_the_sheriff_while_outlaws_live() -> None:
    gatling = _ids(CardName.GATLING)[0]
    # the Sheriff at 1 life: a Gatling could end the game for the Outlaws
    game = _at_play(P[4], (gatling,), p1=1)
    assert _choice(game) == cmd.EndPlay(player=P[4])


def test_a_shot_player_uses_his_barrel_then_a_missed_and_a_dying_one_drinks_his_beer() -> None:
    gatling, barrel, beer = _ids(CardName.GATLING)[0], _ids(CardName.BARREL)[0], _ids(CardName.BEER)[0]
    missed = _ids(CardName.MISSED)
    rest = [c.id for c in DECK if c.id not in (gatling, barrel, beer) and c.id not in missed]
    position = Position(
        players=(
            PlayerPosition(player=P[0], life=5, hand=(gatling,)),
            PlayerPosition(player=P[1], life=4, hand=(missed[-1],), in_play=(barrel,)),
            PlayerPosition(player=P[4], life=1, hand=(beer,)),
        ),
        deck=(*missed[:-1], *rest),  # the Barrel's draw! flips a spade
        active=P[0],
    )
    game = Game.start(SEATS, position=position)
    game.play(cmd.PlayCard(player=P[0], card=gatling))
    bot, answers, table = HeuristicCardBot(), [], game_seeds(0, 0)[1]
    while (q := game.awaiting) is not None and q.player != P[0]:
        if q.player == TABLE:  # El Gringo, hit, takes a card from the Sheriff's hand
            game.play(table.answer(game))
            continue
        choice = bot.choose(game, q, random.Random(0))
        answers.append((q.decision, choice))
        game.play(choice)
    assert answers == [
        (Decision.RESPOND_SHOT, cmd.UseBarrel(player=P[1], card=barrel)),
        (Decision.RESPOND_SHOT, cmd.Respond(player=P[1], card=missed[-1])),
        (Decision.RESPOND_SHOT, cmd.Pass(player=P[4])),
        (Decision.DYING, cmd.Respond(player=P[4], card=beer)),
    ]
    assert game.state.player(P[4]).alive and game.state.player(P[1]).life == 4


def test_a_heuristic_game_is_reproduced_by_its_seed_each_answer_legal_when_given() -> None:
    rng, table = game_seeds(3, 3, 6)
    game = play_game(deal(6, table), HeuristicCardBot(), table, rng)
    # the commands of the record, replayed, are each in the legal set of their moment
    rng2, table2 = game_seeds(3, 3, 6)
    replay = Game.start(deal(6, table2))
    bot = HeuristicCardBot()
    while not replay.is_over:
        q = replay.awaiting
        assert q is not None
        command = table2.answer(replay) if q.player == TABLE else bot.choose(replay, q, rng2)
        assert command in LegalCommands(replay.state)
        replay.play(command)
    assert replay.events == game.events


def test_the_renegade_thins_the_law_while_it_is_ahead_and_helps_it_when_the_sheriff_is_low() -> None:
    bang = _ids(CardName.BANG)[0]
    knowledge = Knowledge()
    knowledge.note(P[1], P[0])  # p2 shot the Sheriff: an Outlaw
    knowledge.note(P[3], P[1])  # p4 shot p2 twice: the Law, by what everybody saw
    knowledge.note(P[3], P[1])
    strong = _at_play(P[4], (bang,))
    assert _choice(strong, knowledge) == cmd.PlayCard(player=P[4], card=bang, target=P[3])
    low = _at_play(P[4], (bang,), p1=2)
    assert _choice(low, knowledge) == cmd.PlayCard(player=P[4], card=bang, target=P[1])


@pytest.mark.parametrize("players", [4, 7])
def test_heuristic_bots_play_a_table_game_whose_deck_order_nobody_knows(players: int) -> None:
    # at a table the deck is shuffled unknown and each card named as it is taken: the bots
    # must not lean on a deck order
    for index in range(3):
        rng, table = game_seeds(61, index, players)
        game = Game.start(deal(players, table))
        bot = HeuristicCardBot()
        while not game.is_over:
            q = game.awaiting
            assert q is not None
            if q.decision is Decision.SHUFFLE:
                command: cmd.Command = cmd.ShuffleDeck(player=TABLE, order=())
            elif q.decision is Decision.TOP_CARD:
                command = cmd.NameTopCard(player=TABLE, card=rng.choice(game.state.pool))
            elif q.player == TABLE:
                command = table.answer(game)
            else:
                command = bot.choose(game, q, rng)
            game.play(command)
            assert len(game.events) < 20_000
        assert not any(e.order for e in game.events if isinstance(e, ev.DeckShuffled))
