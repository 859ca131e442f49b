"""The bots under Old Saloon: legal answers to every module decision, and the heuristic
policies (the Saloon die, the Chief's Arrow, broken arrows, double faces, unknown decisions by
their hint)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from services.game.bots import Bot, HeuristicBot, PlayerView, RandomBot
from services.game.engines import implemented_modules
from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Game,
    GameCommand,
    GameState,
    PlayerId,
    Role,
    RollDice,
    Seat,
)
from services.game.rules.dice import commands as cmd
from services.game.rules.dice.commands import GhostGive, PassWindow, UseRole
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.kinds import BASE, LOUDMOUTH
from services.game.rules.dice.modules import ENGINE_MODULES, RulesModule, assemble, rules_for
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import TurnState
from services.game.rules.dice.vocabulary import CharacterId, Face, Phase, SpecialRole
from services.game.rules.ruleset import MODULES, ModuleId, ruleset_of
from services.game.simulation import deal, game_seeds, play_game

OLD_SALOON = sorted(m for m in implemented_modules() if m.startswith("OS"))


def module_sets() -> Iterator[tuple[ModuleId, ...]]:
    for k in range(1, len(OLD_SALOON) + 1):
        yield from itertools.combinations(OLD_SALOON, k)


class Checked:
    """Wraps a bot: each answer must be one of the engine's legal commands."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.answered: set[str] = set()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        command = self.bot.choose(game, question, rng)
        assert isinstance(game, Game)
        state = game.state
        spec = state.rules.decisions[question.decision]
        if spec.who == "table":  # a seat's answer to the table: its own use or its pass
            assert command in list(spec.generate(state, question)) or command == spec.timeout(state, question)
        else:
            assert command in game.legal_commands(), f"{self.bot!r} played illegal '{command}' for {question}"
        self.answered.add(str(question.decision))
        return command


@pytest.mark.parametrize("modules", list(module_sets()), ids=" ".join)
@pytest.mark.parametrize("make", [HeuristicBot, RandomBot], ids=["heuristic", "random"])
def test_bots_answer_every_module_decision_legally(modules: tuple[ModuleId, ...], make: type[Bot]) -> None:
    ruleset = ruleset_of(modules)
    least = max(MODULES[m].min_players for m in modules)
    checked = Checked(make())
    for players in range(max(4, least), 9):
        for index in range(6):
            rng, dice = game_seeds(players, index, ruleset)
            game = play_game(deal(players, rng, ruleset), checked, dice, rng, ruleset=ruleset)
            assert game.is_over
    module_decisions = {str(spec.decision) for m in modules for spec in _specs(m)}
    asked_often = {"saloon_die", "arrow_token", "broken_arrow_target", "ghost_give"}
    assert module_decisions & asked_often <= checked.answered


def _specs(module: ModuleId) -> tuple[DecisionSpec, ...]:

    return ENGINE_MODULES[module].decisions


# --- the heuristic's policies, on positions made to ask them ------------------------------------

P1, P2, P3, P4, P5 = (PlayerId(f"p{i}") for i in range(1, 6))


def _game(modules: tuple[ModuleId, ...], first: CharacterId = CharacterId.PAUL_REGRET) -> Game:
    seats = [
        Seat(player=P1, role=Role.OUTLAW, character=first),
        Seat(player=P2, role=Role.SHERIFF, character=CharacterId.ROSE_DOOLAN),
        Seat(player=P3, role=Role.OUTLAW, character=CharacterId.SUZY_LAFAYETTE),
        Seat(player=P4, role=Role.RENEGADE, character=CharacterId.WILLY_THE_KID),
        Seat(player=P5, role=Role.DEPUTY, character=CharacterId.EL_GRINGO),
    ]
    game = Game.start(seats, None, rules_for(modules))
    # p1 plays first: the Sheriff's turn is started only when the test wants it
    return game


def _ask(game: Game, question: Awaiting) -> GameCommand:
    return HeuristicBot().choose(game.state, question, random.Random(0))


def _turn_of(game: Game, player: PlayerId) -> Awaiting:
    """Play until ``player`` is asked to choose a Saloon die (bots answer, dice all arrows)."""
    for _ in range(400):
        q = game.awaiting
        assert q is not None
        if q.decision == "saloon_die" and q.player == player:
            return q
        if q.decision == "roll":
            game.play(RollDice(player=q.player, faces=(Face.DYNAMITE,) * len(q.dice)))
        else:
            game.play(HeuristicBot().choose(game, q, random.Random(1)))
    raise AssertionError(f"{player} was never asked for a Saloon die")


def test_saloon_die_loudmouth_when_healthy_coward_when_hurt_none_with_nobody_to_hit() -> None:
    game = _game((ModuleId.OS1,))
    q = _turn_of(game, P2)
    sheriff = game.state.by_id[P2]
    assert sheriff.life >= 5
    # the Sheriff wants nobody hurt before anyone has shot him: no Saloon die
    assert _ask(game, q) == cmd.ChooseSaloonDie(player=P2)
    state = game.state.clone()
    state.by_id[P2].life = 2
    assert HeuristicBot().choose(state, q, random.Random(0)) == cmd.ChooseSaloonDie(player=P2, die="coward")
    state = game.state.clone()
    state.by_id[P2].arrows = 2
    state.arrow_pile -= 2
    assert HeuristicBot().choose(state, q, random.Random(0)) == cmd.ChooseSaloonDie(player=P2, die="coward")
    # an outlaw beside the Sheriff wants him hurt and takes the Loudmouth
    outlaw = Awaiting(player=P1, decision=q.decision)
    state = game.state.clone()
    state.by_id[P1].life = state.by_id[P1].max_life
    loudmouth = cmd.ChooseSaloonDie(player=P1, die="loudmouth")
    assert HeuristicBot().choose(state, outlaw, random.Random(0)) == loudmouth


def test_the_chiefs_arrow_is_taken_only_by_a_player_who_would_hold_the_most() -> None:
    game = _game((ModuleId.OS2,))
    state = game.state.clone()
    q = Awaiting(player=P1, decision="arrow_token")  # type: ignore[arg-type]
    bot = HeuristicBot()
    # nobody holds arrows, nine tokens and the Chief's in the pile: 2 to 0 with many arrows to
    # come is no safe lead: a regular arrow
    assert bot.choose(state, q, random.Random(0)) == cmd.TakeArrow(player=P1, chief=False)
    state.by_id[P1].arrows = 3
    state.arrow_pile -= 3
    assert bot.choose(state, q, random.Random(0)) == cmd.TakeArrow(player=P1, chief=True)
    state.by_id[P3].arrows = 5  # 5 against the 5 p1 would hold, the pile nearly empty
    state.arrow_pile -= 5
    assert bot.choose(state, q, random.Random(0)) == cmd.TakeArrow(player=P1, chief=False)


def test_a_broken_arrow_is_taken_from_oneself_else_from_the_friendliest_holder() -> None:
    game = _game((ModuleId.OS1,))
    state = game.state.clone()

    state.turn = TurnState(player=P1, number=1)
    q = Awaiting(player=P1, decision="broken_arrow_target")  # type: ignore[arg-type]
    state.by_id[P2].arrows = 2  # the Sheriff: the outlaw's prey
    state.by_id[P3].arrows = 1
    state.arrow_pile -= 3
    # p3 is unknown to p1 (want about 0), the Sheriff is the outlaw's target: p3 is relieved
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P1, target=P3)
    state.by_id[P1].arrows = 1
    state.arrow_pile -= 1
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P1, target=P1)


def test_a_double_shot_is_aimed_twice_and_split_off_a_target_it_would_overkill() -> None:
    game = _game((ModuleId.OS1,))
    state = game.state.clone()

    kinds = (BASE, BASE, BASE, BASE, LOUDMOUTH)
    state.turn = TurnState(
        player=P1,
        number=1,
        phase=Phase.RESOLVING,
        dice=[Face.ARROW, Face.ARROW, Face.BEER, Face.DYNAMITE, Face.SHOOT1X2],
        rolls_used=3,
        pending_roll=None,
        kinds=kinds,
    )
    q = Awaiting(player=P1, decision="shot_target", dice=(4,))  # type: ignore[arg-type]
    first = HeuristicBot().choose(state, q, random.Random(0))
    assert first == ChooseTarget(player=P1, die=4, target=P2)  # the outlaw's Sheriff, in reach
    state.turn.targets[4] = (P2, Face.SHOOT1)
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P1, die=4, target=P2)
    state.by_id[P2].life = 1  # the first symbol kills him: the second goes elsewhere
    # p5 (a deputy p1 cannot tell from an outlaw) rather than a wasted shot
    assert HeuristicBot().choose(state, q, random.Random(0)) == ChooseTarget(player=P1, die=4, target=P5)


# --- a decision no bot knows: answered by its hint ------------------------------------------------


def _spec(name: str, hint: BotHint) -> DecisionSpec:
    def generate(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
        for p in s.living():
            yield ChooseTarget(player=q.player, target=p.id)

    def timeout(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
        return ChooseTarget(player=q.player, target=s.players[-1].id)

    return DecisionSpec(
        name,  # type: ignore[arg-type]
        Who.ACTIVE,
        TurnPoint.START_OF_TURN,
        "test",
        (ChooseTarget,),
        lambda s, q, c: None,
        lambda s, q, c, emit: None,
        generate,
        timeout,
        hint,
    )


def test_an_unknown_decision_is_answered_by_its_hint() -> None:
    module = RulesModule(
        id=ModuleId.UA5,
        decisions=(
            _spec("test_hurt", BotHint.HURT),
            _spec("test_help", BotHint.HELP),
            _spec("test_decline", BotHint.DECLINE),
        ),
    )
    seats = _game(()).state.players
    game = Game.start(
        [Seat(player=p.id, role=p.role, character=p.character.id) for p in seats], None, assemble([module])
    )
    state = game.state
    bot = HeuristicBot()

    def ask(name: str) -> GameCommand:
        return bot.choose(state, Awaiting(player=P1, decision=name), random.Random(0))  # type: ignore[arg-type]

    assert ask("test_hurt") == ChooseTarget(player=P1, target=P2)  # the outlaw's Sheriff
    state.by_id[P1].life = 1
    assert ask("test_help") == ChooseTarget(player=P1, target=P1)  # hurt: itself
    assert ask("test_decline") == ChooseTarget(player=P1, target=P5)  # the timeout default
    assert RandomBot().choose(state, Awaiting(player=P1, decision="test_hurt"), random.Random(0)) in [  # type: ignore[arg-type]
        ChooseTarget(player=P1, target=p.id) for p in state.players
    ]


# --- OS5: the Ghost's gift; OS3: the special roles' windows ---------------------------------------


def _ghost_turn(game: Game, ghost: PlayerId, faces: tuple[Face, Face]) -> GameState:

    state = game.state.clone()
    seat = state.by_id[ghost]
    seat.alive, seat.life, seat.ghost_since = False, 0, 0
    state.turn = TurnState(player=ghost, number=3, dice=[*faces, None, None, None], rolls_used=1)
    state.turn.pending_roll = None
    return state


def test_the_ghost_gives_a_harmful_token_to_an_enemy_or_a_beer_to_a_friend() -> None:
    game = _game((ModuleId.OS5,))

    # the outlaw p3's Ghost: dynamite to the Sheriff rather than a beer to anyone
    state = _ghost_turn(game, P3, (Face.BEER, Face.DYNAMITE))
    q = Awaiting(player=P3, decision="ghost_give", dice=(0, 1))  # type: ignore[arg-type]
    assert HeuristicBot().choose(state, q, random.Random(0)) == GhostGive(
        player=P3, face=Face.DYNAMITE, target=P2
    )
    # the deputy p5's Ghost: the beer to his hurt Sheriff rather than an arrow to anyone
    state = _ghost_turn(game, P5, (Face.BEER, Face.ARROW))
    state.by_id[P2].life -= 3
    q = Awaiting(player=P5, decision="ghost_give", dice=(0, 1))  # type: ignore[arg-type]
    beer = GhostGive(player=P5, face=Face.BEER, target=P2)
    assert HeuristicBot().choose(state, q, random.Random(0)) == beer


def _os3_game() -> Game:

    cards = {
        P1: SpecialRole.LE_JOUEUR,
        P2: SpecialRole.L_OURS,
        P3: SpecialRole.LE_MAUVAIS,
        P4: SpecialRole.MAIN_GAUCHE,
        P5: SpecialRole.LE_DOC,
    }
    seats = [
        Seat(player=p.id, role=p.role, character=p.character.id, special=cards[p.id])
        for p in _game(()).state.players
    ]
    return Game.start(seats, None, rules_for((ModuleId.OS3,)))


def test_le_joueur_forces_a_reroll_of_an_enemys_strong_roll_only() -> None:

    state = _os3_game().state.clone()
    q = Awaiting(player=P1, decision="role_window_after_last_roll")  # type: ignore[arg-type]
    for dice, used in (
        ([Face.SHOOT1, Face.SHOOT1, Face.SHOOT2, Face.ARROW, Face.BEER], True),  # the Sheriff's 3 shots
        ([Face.SHOOT1, Face.BEER, Face.BEER, Face.ARROW, Face.DYNAMITE], False),
    ):
        state.turn = TurnState(player=P2, number=2, phase=Phase.RESOLVING, dice=list(dice), rolls_used=3)
        state.turn.pending_roll = None
        answer = HeuristicBot().choose(state, q, random.Random(0))
        expected = UseRole(player=P1, role=SpecialRole.LE_JOUEUR) if used else PassWindow(player=P1)
        assert answer == expected, dice


def test_simulated_special_roles_are_used_by_their_holders() -> None:
    ruleset = ruleset_of([ModuleId.OS3])
    used: set[str] = set()
    for index in range(30):
        rng, dice = game_seeds(7, index, ruleset)
        game = play_game(deal(6, rng, ruleset), HeuristicBot(), dice, rng, ruleset=ruleset)
        for event in game.events:
            name = type(event).__name__
            if name == "RolePowerUsed":
                used.add(str(event.role))  # type: ignore[attr-defined]
            elif name == "RoleUseCancelled":
                used.add("le_juge")
    # every card but L'Ours (passive) is played by some holder over these games
    assert used >= {"le_joueur", "le_mauvais", "main_gauche", "main_droite", "le_doc", "le_juge"}, used


def test_the_heuristic_ignores_roles_its_player_cannot_know_under_old_saloon() -> None:
    """As in the base game (``test_bots``): the same answer with the hidden roles swapped among
    their holders, here with the Saloon dice, the Chief's Arrow and the Ghost."""
    ruleset = ruleset_of([ModuleId.OS1, ModuleId.OS2, ModuleId.OS5])
    compared = 0
    for index in range(12):
        rng, dice = game_seeds(98, index, ruleset)
        game = Game.start(deal(6, rng, ruleset), None, rules_for(ruleset.modules))
        bot = HeuristicBot()
        while not game.is_over:
            question = game.awaiting
            assert question is not None
            if question.decision == "roll":
                kinds = [game.state.turn.kinds[i].name for i in question.dice]  # type: ignore[union-attr]
                game.play(RollDice(player=question.player, faces=dice.roll(len(question.dice), kinds)))
                continue
            seed = rng.random()
            plain = HeuristicBot().choose(game.state, question, random.Random(seed))
            hidden = game.state.clone()
            me = question.player
            unknown = [p for p in hidden.players if p.alive and p.id != me and p.role is not Role.SHERIFF]
            for p, role in zip(unknown, reversed([p.role for p in unknown]), strict=True):
                p.role = role
            assert HeuristicBot().choose(hidden, question, random.Random(seed)) == plain, question
            compared += 1
            game.play(bot.choose(game, question, rng))
    assert compared > 300


class SheriffSpy:
    """A heuristic bot that checks, before each answer, that its view's Sheriff is the game's."""

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        assert isinstance(game, Game)
        view = PlayerView(game.state, question.player, self.bot._knowledge_of(game.events))
        assert view.sheriff is next(p for p in game.state.players if p.role is Role.SHERIFF)
        return self.bot.choose(game, question, rng)


def test_after_le_bien_the_bots_know_the_new_sheriff() -> None:
    """Le Bien's swap changes who the Sheriff is without an elimination: the bots' cached
    seating (and every reading made about the old Sheriff) must follow."""
    ruleset = ruleset_of([ModuleId.OS3])
    changes = 0
    for index in range(120):
        rng, dice = game_seeds(3, index, ruleset)
        game = play_game(deal(5, rng, ruleset), SheriffSpy(), dice, rng, ruleset=ruleset)
        changes += any(type(e).__name__ == "SheriffChanged" for e in game.events)
        if changes >= 2:
            break
    assert changes >= 2


# --- OS4: the new characters' options --------------------------------------------------------------


def test_jose_and_tequila_take_the_die_their_character_adds() -> None:
    for character, die in ((CharacterId.JOSE_DELGADO, "loudmouth"), (CharacterId.TEQUILA_JOE, "coward")):
        game = _game((ModuleId.OS1, ModuleId.OS4), first=character)
        q = Awaiting(player=P1, decision=_turn_of(game, P2).decision)
        assert _ask(game, q) == cmd.ChooseSaloonDie(player=P1, die=die)


def test_apache_kid_seizes_the_chiefs_arrow_from_an_enemy_it_would_spare() -> None:
    game = _game((ModuleId.OS2, ModuleId.OS4), first=CharacterId.APACHE_KID)
    state = game.state.clone()
    q = Awaiting(player=P1, decision="apache_take_chief")  # type: ignore[arg-type]
    # the Sheriff holds the Chief's Arrow and 3 tokens in all, the most: p1 (an outlaw) strips him
    state.by_id[P2].arrows = 3
    state.chief_holder, state.chief_in_pile = P2, False
    state.arrow_pile -= 3
    assert HeuristicBot().choose(state, q, random.Random(0)) == cmd.SeizeChiefArrow(player=P1)
    # the holder is p3, whom p1 does not want hurt, and p4 holds more: no reason to take it
    state.by_id[P2].arrows = 0
    state.by_id[P3].arrows = 1
    state.by_id[P4].arrows = 4
    state.chief_holder = P3
    state.arrow_pile = 10 - 5
    assert HeuristicBot().choose(state, q, random.Random(0)) == cmd.Decline(player=P1)
