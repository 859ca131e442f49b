"""The heuristic bot under UA4 (the zombie outbreak): after an outbreak it plays its side (the
survivors, law and outlaws alike, against the zombies and their Master), zombies play as zombies
(three dice, no heal of their own, no arrows), and before an outbreak the renegade keeps the
Sheriff for last while the law and the outlaws spare the falls that would only feed the Boneyard."""

from __future__ import annotations

import random

import pytest

from services.game.bots import HeuristicBot
from services.game.bots.view import Knowledge, PlayerView, shot_options
from services.game.bots.wants import FOE, STRONG_FRIEND, boneyard_near, fall_wins, wants, zombie_side
from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Decision,
    Game,
    GameCommand,
    GameState,
    PlayerId,
    Reroll,
    Role,
    Seat,
    StopRolling,
)
from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.events import Event, LifeGained, LifeLost
from services.game.rules.dice.kinds import ZOMBIE_HAND
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.state import TurnState
from services.game.rules.dice.undead.zombies import zombie_character
from services.game.rules.dice.vocabulary import Cause, Face, GainCause, Phase
from services.game.rules.ruleset import ModuleId, ruleset_of
from services.game.simulation import deal, game_seeds, play_game

P1, P2, P3, P4, P5, P6 = (PlayerId(f"p{i}") for i in range(1, 7))
UA4 = (ModuleId.UA4,)


def _state(roles: tuple[Role, ...], modules: tuple[ModuleId, ...] = UA4) -> GameState:
    """A fresh game of six seats p1..p6 with these roles and plain characters (reach 1 and 2)."""
    characters = (
        CharacterId.PAUL_REGRET,
        CharacterId.SUZY_LAFAYETTE,
        CharacterId.WILLY_THE_KID,
        CharacterId.EL_GRINGO,
        CharacterId.JESSE_JONES,
        CharacterId.PEDRO_RAMIREZ,
    )
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)
        for i, (role, ch) in enumerate(zip(roles, characters, strict=True))
    ]
    return Game.start(seats, None, rules_for(modules)).state.clone()


SIX = (Role.OUTLAW, Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE, Role.OUTLAW)


def _outbreak(
    state: GameState, zombies: tuple[PlayerId, ...], master: PlayerId | None, life: int = 3
) -> None:
    """``state`` as ``OutbreakBegan`` leaves it: ``zombies`` back in play with ``life``, the Master."""
    b = state.boneyard
    assert b is not None
    b.outbreak_turn = 1
    for pid in zombies:
        p = state.by_id[pid]
        p.alive, p.zombie_since, p.life, p.max_life = True, 1, life, life
        p.character = zombie_character(p.character)
    if master is not None:
        state.by_id[master].zombie_master = True


def _turn(state: GameState, player: PlayerId, dice: list[Face], zombie: bool = False) -> TurnState:
    t = TurnState(
        player=player, number=5, phase=Phase.RESOLVING, dice=list(dice), rolls_used=3, pending_roll=None
    )
    if zombie:
        t.kinds = ZOMBIE_HAND
    state.turn = t
    return t


def _shot(state: GameState, player: PlayerId, die: int = 0) -> PlayerId:
    command = HeuristicBot().choose(
        state, Awaiting(player=player, decision=Decision.SHOT_TARGET, dice=(die,)), random.Random(0)
    )
    assert isinstance(command, ChooseTarget)
    return command.target


def _kill(state: GameState, *players: PlayerId) -> None:
    for pid in players:
        p = state.by_id[pid]
        p.alive, p.life = False, 0


# --- after the outbreak: two sides --------------------------------------------------------------


def test_after_an_outbreak_every_seat_wants_the_other_side_hurt_and_its_own_helped() -> None:
    state = _state(SIX)
    _outbreak(state, (P4, P6), master=P5)
    by_side = {
        P1: {P2: STRONG_FRIEND, P3: STRONG_FRIEND, P4: FOE, P5: FOE, P6: FOE},  # an outlaw survivor
        P3: {P1: STRONG_FRIEND, P2: STRONG_FRIEND, P4: FOE, P5: FOE, P6: FOE},  # a deputy survivor
        P4: {P1: FOE, P2: FOE, P3: FOE, P5: STRONG_FRIEND, P6: STRONG_FRIEND},  # a zombie
        P5: {P1: FOE, P2: FOE, P3: FOE, P4: STRONG_FRIEND, P6: STRONG_FRIEND},  # the Master
    }
    for me, expected in by_side.items():
        assert wants(PlayerView(state, me, Knowledge())) == expected, me


def test_an_outlaw_survivor_shoots_a_zombie_not_the_sheriff() -> None:
    state = _state(SIX)
    _turn(state, P1, [Face.SHOOT1, Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE])
    # before any outbreak the outlaw shoots the Sheriff beside him (p2; p6 the other neighbour)
    assert _shot(state, P1) == P2
    _outbreak(state, (P4, P6), master=P5, life=4)
    state.by_id[P2].life = 1  # a Sheriff about to fall is no prey any more: a fellow survivor
    assert _shot(state, P1) == P6


def test_the_zombie_master_shoots_the_sheriff_not_his_zombies() -> None:
    roles = (Role.OUTLAW, Role.DEPUTY, Role.OUTLAW, Role.OUTLAW, Role.RENEGADE, Role.SHERIFF)
    state = _state(roles)
    _turn(state, P5, [Face.SHOOT1, Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE])
    # the renegade before the outbreak: the Sheriff (p6) is kept for last, p4 shot instead
    assert _shot(state, P5) == P4
    _kill(state, P4)
    _outbreak(state, (P4,), master=P5)
    assert _shot(state, P5) == P6


def test_a_survivor_forced_to_hit_his_own_side_hits_the_one_with_most_life() -> None:
    state = _state(SIX)
    _outbreak(state, (P4,), master=None)
    _turn(state, P1, [Face.SHOOT1, Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE])
    # p1's neighbours p2 and p6 are both survivors: the shot goes to the healthier one
    state.by_id[P2].life, state.by_id[P6].life = 2, 6
    assert _shot(state, P1) == P6
    state.by_id[P2].life, state.by_id[P6].life = 7, 2
    assert _shot(state, P1) == P2


def test_a_zombies_beer_goes_to_his_hurt_master_never_to_a_survivor() -> None:
    state = _state(SIX)
    _outbreak(state, (P4, P6), master=P5)
    _turn(state, P4, [Face.BEER, Face.ARROW, Face.DYNAMITE], zombie=True)
    q = Awaiting(player=P4, decision=Decision.BEER_TARGET, dice=(0,))
    state.by_id[P4].life = 1  # a zombie gains nothing from it, however hurt
    state.by_id[P3].life = 2  # a survivor in need: not his to help
    state.by_id[P5].life -= 3
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P4, die=0, target=P5)
    state.by_id[P5].life = state.by_id[P5].max_life  # nobody on his side gains from it: wasted
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P4, die=0, target=P4)


def test_a_hurt_zombie_rerolls_his_beers_and_keeps_shots_at_survivors() -> None:
    state = _state(SIX)
    _outbreak(state, (P4, P6), master=P5, life=4)
    state.by_id[P6].life = 1
    t = _turn(state, P6, [Face.BEER, Face.SHOOT1, Face.ARROW], zombie=True)
    t.phase, t.rolls_used = Phase.ROLLING, 1
    q = Awaiting(player=P6, decision=Decision.REROLL_OR_STOP, dice=(0, 1, 2))
    # p6's neighbours: p1 (a survivor) and p5 (his Master): the shot stays, the beer and the
    # arrow (no token for a zombie, nothing to keep) are rolled again
    assert HeuristicBot().choose(state, q, random.Random(0)) == Reroll(player=P6, dice=(0, 2))


def test_after_an_outbreak_a_gatling_is_kept_only_when_it_hits_more_foes_than_friends() -> None:
    # three zombies and their Master against two survivors: a zombie's gatling hurts his side more
    state = _state(SIX)
    _kill(state, P2, P4, P6)  # the Sheriff among them: a position made for the test
    _outbreak(state, (P2, P4, P6), master=P5, life=5)
    t = _turn(state, P4, [Face.GATLING, Face.GATLING, Face.ARROW], zombie=True)
    t.phase, t.rolls_used = Phase.ROLLING, 1
    q = Awaiting(player=P4, decision=Decision.REROLL_OR_STOP, dice=(0, 1, 2))
    assert HeuristicBot().choose(state, q, random.Random(0)) == Reroll(player=P4, dice=(0, 1, 2))
    # a survivor's gatling there hits four foes and one friend: kept
    t = _turn(state, P1, [Face.GATLING, Face.GATLING, Face.GATLING, Face.DYNAMITE, Face.DYNAMITE])
    t.phase, t.rolls_used = Phase.ROLLING, 1
    q = Awaiting(player=P1, decision=Decision.REROLL_OR_STOP, dice=(0, 1, 2))
    assert HeuristicBot().choose(state, q, random.Random(0)) == StopRolling(player=P1)


# --- before the outbreak --------------------------------------------------------------------------


def test_the_renegade_heals_a_low_sheriff_and_shoots_him_only_when_they_are_the_last_two() -> None:
    state = _state(SIX)
    _turn(state, P5, [Face.BEER, Face.ARROW, Face.ARROW, Face.DYNAMITE, Face.SHOOT1])
    beer = Awaiting(player=P5, decision=Decision.BEER_TARGET, dice=(0,))
    assert HeuristicBot().choose(state, beer, random.Random(0)) == ChooseTarget(player=P5, die=0, target=P5)
    state.by_id[P2].life = 2
    assert HeuristicBot().choose(state, beer, random.Random(0)) == ChooseTarget(player=P5, die=0, target=P2)
    _kill(state, P1, P3, P4, P6)
    assert _shot(state, P5, die=4) == P2  # the last two: now the Sheriff must fall


def _beer(source: PlayerId, player: PlayerId) -> LifeGained:
    return LifeGained(player=player, amount=1, cause=GainCause.BEER, source=source)


def _shot_with(state: GameState, events: list[Event], player: PlayerId, die: int = 0) -> PlayerId:
    """The bot's target for ``die`` when the public history is ``events``."""
    q = Awaiting(player=player, decision=Decision.SHOT_TARGET, dice=(die,))
    command = HeuristicBot().choose(Game(state, events), q, random.Random(0))
    assert isinstance(command, ChooseTarget)
    return command.target


def test_the_renegade_shoots_the_stronger_side() -> None:
    roles = (Role.OUTLAW, Role.DEPUTY, Role.SHERIFF, Role.OUTLAW, Role.RENEGADE, Role.OUTLAW)
    state = _state(roles)
    _turn(state, P5, [Face.SHOOT1, Face.ARROW, Face.ARROW, Face.DYNAMITE, Face.BEER])
    # p4 has shot the Sheriff (p3), p2 has poured him a beer
    history: list[Event] = [LifeLost(player=P3, amount=2, source=P4, cause=Cause.SHOOT1), _beer(P2, P3)]
    # three outlaws against two of the law: of p5's neighbours (p4, p6) the Sheriff's attacker
    assert _shot_with(state, history, P5) == P4
    _kill(state, P1, P6)  # two outlaws down (revealed): one left against two of the law
    # p5's neighbours are now p4 and p2: the law is the stronger side, its deputy is shot
    assert _shot_with(state, history, P5) == P2


def test_near_the_outbreak_an_outlaw_spares_a_fall_that_would_only_feed_the_boneyard() -> None:
    state = _state(SIX)
    b = state.boneyard
    assert b is not None
    _turn(state, P1, [Face.SHOOT2, Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE])
    # p1 (an outlaw) reaches p3 and p5 with a shoot2; both poured the Sheriff (p2) a beer, so
    # both are wanted hurt; p3 is at 1 life
    history: list[Event] = [_beer(P3, P2), _beer(P5, P2)]
    state.by_id[P3].life = 1
    assert _shot_with(state, history, P1) == P3  # far from the outbreak: the kill
    b.shown = ["b09", "b10"]  # 4 hands showing, 6 alive: one more fall may start the outbreak
    b.pile = [c for c in b.pile if c not in b.shown]
    assert boneyard_near(PlayerView(state, P1, Knowledge()))
    assert _shot_with(state, history, P1) == P5  # near it: hurt p5, do not make a zombie of p3
    # the renegade, the Zombie Master to be, does not mind a fall: from p5 a shoot2 reaches p3
    # (at 1 life, who has shot the Sheriff) and p1; with three outlaws against two of the law
    # he props up the law, and p3 falls
    _turn(state, P5, [Face.SHOOT2, Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE])
    assert _shot_with(state, [LifeLost(player=P2, amount=1, source=P3, cause=Cause.SHOOT1)], P5) == P3


def test_fall_wins_names_the_falls_that_end_the_game_for_this_side() -> None:
    state = _state(SIX)
    view = PlayerView(state, P1, Knowledge())
    want = wants(view)
    assert fall_wins(view, state.by_id[P2], want)  # an outlaw: the Sheriff
    assert not fall_wins(view, state.by_id[P3], want)
    renegade = PlayerView(state, P5, Knowledge())
    assert not fall_wins(renegade, state.by_id[P2], wants(renegade))
    _kill(state, P1, P4, P6)  # every outlaw down: the renegade is the law's last enemy
    sheriff = PlayerView(state, P2, Knowledge())
    want = wants(sheriff)
    # p3 and p5 are hidden to the Sheriff: one deputy is still alive, so only the player he
    # most wants hurt is taken for the last enemy
    assert fall_wins(sheriff, state.by_id[P5], want) == (want[P5] >= want[P3])
    deputy = PlayerView(state, P3, Knowledge())
    assert fall_wins(deputy, state.by_id[P5], wants(deputy))  # no other deputy: p5 is the enemy
    assert not fall_wins(deputy, state.by_id[P2], wants(deputy))


# --- whole games ----------------------------------------------------------------------------------


class _Watching(HeuristicBot):
    """A heuristic bot that checks, at each of its shots after an outbreak, that it aimed at the
    other side whenever the die could reach one of them."""

    __slots__ = ("checked",)

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        command = super().choose(game, question, rng)
        state = game.state if isinstance(game, Game) else game
        if question.decision is Decision.SHOT_TARGET and state.outbreak:
            assert isinstance(command, ChooseTarget) and command.die is not None
            me = state.by_id[question.player]
            options = shot_options(PlayerView(state, me.id, Knowledge()), command.die)
            foes = {p.id for p, _ in options if zombie_side(p) is not zombie_side(me)}
            if foes:
                self.checked += 1
                assert command.target in foes, (question, command)
        return command


@pytest.mark.parametrize("modules", ["UA4", "OS1 OS2 OS3 OS4 OS5 UA1 UA2 UA3 UA4"])
def test_after_an_outbreak_a_shot_goes_to_the_other_side_whenever_one_is_in_reach(modules: str) -> None:
    ruleset = ruleset_of(modules.split())
    bot = _Watching()
    outbreaks = 0
    for index in range(30):
        rng, dice = game_seeds(13, index, ruleset)
        game = play_game(deal(4 + index % 5, rng, ruleset), bot, dice, rng, ruleset=ruleset)
        assert game.is_over
        outbreaks += game.state.outbreak
    assert outbreaks >= 10 and bot.checked >= 50, (outbreaks, bot.checked)
