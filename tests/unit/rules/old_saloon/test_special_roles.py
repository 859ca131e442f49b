"""OS3, the special roles: each power and Le Juge's cancel, and the windows that never tell who
holds which card (RULINGS-expansions §OS3)."""

from __future__ import annotations

import pytest

from services.game.rules.dice import (
    CharacterId,
    Game,
    GameCommand,
    IllegalCommand,
    InvalidSetup,
    MalformedCommand,
    NotAwaited,
    PlayerId,
    Seat,
    parse_command,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.events import PlayerPosition, Position
from services.game.rules.dice.old_saloon import special_roles as os3
from services.game.rules.dice.old_saloon.special_roles import PassWindow, UseRole, Window
from services.game.rules.dice.vocabulary import Cause, Face, GainCause, Role, SpecialRole
from tests.unit.rules.old_saloon.os3_play import OS3_RULES, WINDOWS

S, D, OUT, R = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE
C = CharacterId
SR = SpecialRole

EIGHT = [
    ("p1", S, C.PAUL_REGRET, SR.L_OURS),
    ("p2", D, C.JOURDONNAIS, SR.LE_DOC),
    ("p3", OUT, C.BLACK_JACK, SR.LE_JOUEUR),
    ("p4", R, C.CALAMITY_JANET, SR.MAIN_GAUCHE),
    ("p5", OUT, C.VULTURE_SAM, SR.LE_MAUVAIS),
    ("p6", R, C.JESSE_JONES, SR.MAIN_DROITE),
    ("p7", OUT, C.WILLY_THE_KID, SR.LE_VILAIN),
    ("p8", D, C.LUCKY_DUKE, SR.LE_JUGE),
]
"""Every power at one table: L'Ours, Le Doc, Le Joueur, Main Gauche, Le Mauvais, Main Droite,
Le Vilain, Le Juge (Le Bien replaces Le Doc where he is tested)."""


def seats(table: list[tuple[str, Role, CharacterId, SpecialRole]], **cards: SpecialRole) -> list[Seat]:
    return [
        Seat(player=PlayerId(p), role=role, character=ch, special=cards.get(p, card))
        for p, role, ch, card in table
    ]


def start(table: list[Seat], *players: tuple[str, int, int], active: str | None = None) -> Game:
    position = None
    if players or active:
        position = Position(
            players=tuple(PlayerPosition(player=PlayerId(p), life=hp, arrows=n) for p, hp, n in players),
            active_player=None if active is None else PlayerId(active),
        )
    return Game.start(table, position, rules=OS3_RULES)


def command(text: str) -> GameCommand:
    return parse_command(text)


def pass_windows(game: Game) -> None:
    while (q := game.awaiting) is not None and q.decision in WINDOWS:
        game.play(PassWindow(player=q.player))  # type: ignore[arg-type]


def play(game: Game, *texts: str) -> None:
    """Play each command; an open window is passed first unless the command answers it."""
    for text in texts:
        c = command(text)
        if not isinstance(c, UseRole | PassWindow):
            pass_windows(game)
        game.play(c)


def of_type(game: Game, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in game.events if isinstance(e, kind)]


def decision(game: Game) -> str | None:
    q = game.awaiting
    return None if q is None else q.decision


# --- setup ---------------------------------------------------------------------------------------


def test_l_ours_starts_with_three_more_life_and_max() -> None:
    game = start(seats(EIGHT))
    sheriff = game.state.by_id[PlayerId("p1")]
    assert (sheriff.life, sheriff.max_life) == (9 + 3, 9 + 3)
    assert game.state.by_id[PlayerId("p2")].max_life == 7


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ({"p2": None}, r"every seat needs one: seat 1 \(p2\) has none"),
        ({"p2": SR.LE_JOUEUR, "p3": SR.LE_DOC}, r"seat 1 \(p2\): le_joueur is a outlaw card, not a deputy"),
        ({"p8": SR.LE_DOC}, "two seats hold the same card"),
    ],
)
def test_setup_refuses_seats_without_a_fitting_special_role(cards: dict[str, SR], message: str) -> None:
    with pytest.raises(InvalidSetup, match=message):
        start(seats(EIGHT, **cards))  # type: ignore[arg-type]


# --- Le Doc ---------------------------------------------------------------------------------------


def test_le_doc_sets_a_die_before_the_roll_s_arrows() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll arrow arrow beer shoot1 gatling")
    assert decision(game) == Window.AFTER_ROLL
    play(game, "p2 use le_doc 0 beer")
    assert decision(game) == Window.AFTER_REVEAL  # Le Juge may still be at the table
    play(game, "p1 pass")
    assert game.state.turn is not None and game.state.turn.dice[0] is Face.BEER
    assert game.state.by_id[PlayerId("p1")].arrows == 1  # only die 1's arrow acted
    assert of_type(game, os3.DieFaceSet) == [os3.DieFaceSet(player=PlayerId("p2"), die=0, face=Face.BEER)]
    assert game.state.special is not None and game.state.special.revealed[PlayerId("p2")] is SR.LE_DOC
    # Le Doc is known and spent: no Doc window after the next roll
    play(game, "p1 reroll 4", "p1 roll beer")
    assert decision(game) == "reroll_or_stop"


def test_le_juge_cancels_le_doc_the_die_keeps_its_face() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll arrow arrow beer shoot1 gatling", "p2 use le_doc 0 beer", "p8 use le_juge")
    assert game.state.turn is not None and game.state.turn.dice[0] is Face.ARROW
    assert game.state.by_id[PlayerId("p1")].arrows == 2
    assert of_type(game, os3.RoleUseCancelled) == [
        os3.RoleUseCancelled(player=PlayerId("p8"), cancelled=PlayerId("p2"))
    ]
    special = game.state.special
    assert special is not None and special.used == {PlayerId("p2"), PlayerId("p8")}


def test_le_doc_may_turn_a_kept_die_into_an_arrow_that_acts_now() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll beer beer beer shoot1 gatling", "p1 reroll 4", "p1 roll gatling")
    play(game, "p2 use le_doc 0 arrow", "p1 pass")
    assert game.state.by_id[PlayerId("p1")].arrows == 1


# --- Le Joueur ------------------------------------------------------------------------------------


def test_le_joueur_forces_a_last_reroll_of_every_die() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll dynamite dynamite beer beer beer", "p1 stop")
    assert decision(game) == Window.AFTER_LAST_ROLL
    play(game, "p3 use le_joueur", "p1 pass")
    q = game.awaiting
    assert q is not None and q.decision == "roll" and q.dice == (0, 1, 2, 3, 4)  # dynamite too
    play(game, "p1 roll shoot1 beer beer beer beer")
    pass_windows(game)
    assert decision(game) == "shot_target"  # no reroll after the forced one
    rolled = of_type(game, ev.DiceRolled)
    assert rolled[-1] == ev.DiceRolled(
        player=PlayerId("p1"), roll=3, dice=(0, 1, 2, 3, 4), faces=(Face.SHOOT1, *[Face.BEER] * 4)
    )


def test_le_juge_cancels_le_joueur_the_dice_stay() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll shoot1 beer beer beer beer", "p1 stop", "p3 use le_joueur", "p8 use le_juge")
    pass_windows(game)
    assert decision(game) == "shot_target"
    assert not of_type(game, os3.RerollForced)


def test_le_joueur_never_acts_on_his_own_roll() -> None:
    # 4 players: 2 outlaws (Le Joueur, Le Vilain), 1 renegade, the Sheriff; p3 is the Joueur
    table = [
        Seat(player=PlayerId("p1"), role=S, character=C.PAUL_REGRET, special=SR.L_OURS),
        Seat(player=PlayerId("p2"), role=R, character=C.JOURDONNAIS, special=SR.MAIN_DROITE),
        Seat(player=PlayerId("p3"), role=OUT, character=C.BLACK_JACK, special=SR.LE_JOUEUR),
        Seat(player=PlayerId("p4"), role=OUT, character=C.WILLY_THE_KID, special=SR.LE_VILAIN),
    ]
    game = start(table, active="p3")
    play(game, "p3 pass", "p3 roll beer beer beer beer gatling", "p3 stop")
    assert decision(game) == Window.AFTER_LAST_ROLL  # asked: the table cannot tell who holds it
    with pytest.raises(IllegalCommand, match="p3 has no special role power that can act at this window"):
        game.play(command("p3 use le_joueur"))  # type: ignore[arg-type]


# --- Le Vilain and Le Bien, at the start of their turn ----------------------------------------------


def test_le_vilain_swaps_all_arrows_of_two_players() -> None:
    game = start(seats(EIGHT), ("p7", 7, 3), ("p1", 11, 1), active="p7")
    assert decision(game) == Window.START_OF_TURN
    play(game, "p7 use le_vilain p7 p1", "p7 pass")
    by = game.state.by_id
    assert (by[PlayerId("p7")].arrows, by[PlayerId("p1")].arrows, game.state.arrow_pile) == (1, 3, 5)


def test_le_juge_cancels_le_vilain() -> None:
    game = start(seats(EIGHT), ("p7", 7, 3), ("p1", 11, 1), active="p7")
    play(game, "p7 use le_vilain p7 p1", "p8 use le_juge")
    by = game.state.by_id
    assert (by[PlayerId("p7")].arrows, by[PlayerId("p1")].arrows) == (3, 1)
    assert decision(game) == "roll"


def test_le_bien_becomes_the_sheriff_and_the_end_of_the_game_follows_him() -> None:
    table = seats(EIGHT, p2=SR.LE_BIEN)
    game = start(table, ("p1", 1, 0), active="p2")
    play(game, "p2 use le_bien", "p2 pass")
    changed = os3.SheriffChanged(player=PlayerId("p2"), previous=PlayerId("p1"))
    assert of_type(game, os3.SheriffChanged) == [changed]
    by = game.state.by_id
    assert (by[PlayerId("p2")].role, by[PlayerId("p1")].role) == (S, D)
    assert by[PlayerId("p2")].life == 7  # life and max unchanged
    play(game, "p2 roll shoot1 beer beer beer beer", "p2 stop", "p2 target 0 p1")
    pass_windows(game)
    assert not by[PlayerId("p1")].alive and not game.is_over  # a Deputy fell, not the Sheriff
    eliminated = of_type(game, ev.PlayerEliminated)
    assert eliminated == [
        ev.PlayerEliminated(player=PlayerId("p1"), role=D, source=PlayerId("p2"), cause=Cause.SHOOT1, turn=1)
    ]


def test_le_juge_cancels_le_bien_the_old_sheriff_still_ends_the_game() -> None:
    game = start(seats(EIGHT, p2=SR.LE_BIEN), ("p1", 1, 0), active="p2")
    play(game, "p2 use le_bien", "p8 use le_juge")
    play(game, "p2 roll shoot1 beer beer beer beer", "p2 stop", "p2 target 0 p1")
    pass_windows(game)
    assert game.is_over and game.result is not None and game.result.winning_side == "outlaws"


def test_start_of_turn_window_is_not_asked_of_the_sheriff() -> None:
    game = start(seats(EIGHT))
    assert decision(game) == "roll"  # p1 holds L'Ours, known to all: nothing to ask


# --- Le Mauvais -------------------------------------------------------------------------------------


def test_le_mauvais_cancels_one_player_s_gains_of_the_step() -> None:
    game = start(seats(EIGHT), ("p1", 5, 0), ("p2", 3, 0))
    play(game, "p1 roll beer beer beer dynamite dynamite", "p1 stop", "p1 target 0 p1", "p1 target 1 p1")
    play(game, "p1 target 2 p2")
    assert decision(game) == Window.BEFORE_GAIN
    assert game.state.by_id[PlayerId("p1")].life == 5  # held, not applied
    play(game, "p5 use le_mauvais p1", "p1 pass")
    pass_windows(game)
    gained = [(e.player, e.amount) for e in of_type(game, ev.LifeGained)]  # type: ignore[attr-defined]
    assert gained == [("p1", 0), ("p1", 0), ("p2", 1)]
    assert game.state.by_id[PlayerId("p1")].life == 5 and game.state.by_id[PlayerId("p2")].life == 4


def test_le_juge_cancels_le_mauvais_the_heal_happens() -> None:
    game = start(seats(EIGHT), ("p1", 5, 0))
    play(game, "p1 roll beer beer shoot1 dynamite dynamite", "p1 stop", "p1 target 2 p2")
    play(game, "p1 target 0 p1", "p1 target 1 p1", "p5 use le_mauvais p1", "p8 use le_juge")
    pass_windows(game)
    assert game.state.by_id[PlayerId("p1")].life == 7


def test_le_mauvais_names_only_a_player_about_to_gain() -> None:
    game = start(seats(EIGHT), ("p1", 5, 0))
    play(game, "p1 roll beer beer beer dynamite dynamite", "p1 stop")
    play(game, "p1 target 0 p1", "p1 target 1 p1", "p1 target 2 p1")
    with pytest.raises(IllegalCommand, match="p2 is not about to gain life"):
        game.play(command("p5 use le_mauvais p2"))  # type: ignore[arg-type]


# --- La Main Gauche, and Vulture Sam ------------------------------------------------------------------


def test_main_gauche_saves_a_player_with_two_life_and_vulture_sam_gains_nothing() -> None:
    game = start(seats(EIGHT), ("p2", 1, 0), ("p5", 5, 0))
    play(game, "p1 roll shoot1 gatling gatling dynamite dynamite", "p1 stop", "p1 target 0 p2")
    assert decision(game) == Window.BEFORE_ELIMINATION
    assert game.state.by_id[PlayerId("p2")].life == 0 and game.state.by_id[PlayerId("p2")].alive
    play(game, "p4 use main_gauche p2", "p1 pass")
    p2 = game.state.by_id[PlayerId("p2")]
    assert p2.alive and p2.life == 2
    assert not of_type(game, ev.PlayerEliminated)
    assert game.state.by_id[PlayerId("p5")].life == 5  # Vulture Sam: nobody was eliminated
    assert of_type(game, os3.EliminationPrevented) == [
        os3.EliminationPrevented(player=PlayerId("p4"), target=PlayerId("p2"), life=2)
    ]


def test_le_juge_cancels_main_gauche_the_player_falls_and_vulture_sam_gains() -> None:
    game = start(seats(EIGHT), ("p2", 1, 0), ("p5", 5, 0))
    play(game, "p1 roll shoot1 gatling gatling dynamite dynamite", "p1 stop", "p1 target 0 p2")
    play(game, "p4 use main_gauche p2", "p8 use le_juge")
    assert [e.player for e in of_type(game, ev.PlayerEliminated)] == ["p2"]  # type: ignore[attr-defined]
    assert decision(game) == Window.BEFORE_GAIN  # Vulture Sam's gain, Le Mauvais still hidden
    play(game, "p1 pass")
    assert game.state.by_id[PlayerId("p5")].life == 7


def test_main_gauche_may_save_himself_from_an_indian_attack() -> None:
    game = start(seats(EIGHT), ("p4", 1, 1), ("p3", 8, 7))
    play(game, "p1 roll arrow beer beer beer gatling")
    pass_windows_until(game, Window.BEFORE_ELIMINATION)
    assert [e.player for e in of_type(game, ev.LifeLost)] == ["p1", "p3", "p4"]  # type: ignore[attr-defined]
    play(game, "p4 use main_gauche p4", "p1 pass")
    assert game.state.by_id[PlayerId("p4")].life == 2 and not of_type(game, ev.PlayerEliminated)
    assert game.state.arrow_pile == 9


# --- La Main Droite ----------------------------------------------------------------------------------


def test_main_droite_takes_one_extra_full_turn() -> None:
    game = start(seats(EIGHT), active="p6")
    play(game, "p6 pass", "p6 roll beer beer beer dynamite dynamite", "p6 stop")
    play(game, "p6 target 0 p6", "p6 target 1 p6", "p6 target 2 p6")
    pass_windows_until(game, Window.END_OF_TURN)
    play(game, "p6 use main_droite", "p6 pass")
    turns = [(e.player, e.turn) for e in of_type(game, ev.TurnStarted)]  # type: ignore[attr-defined]
    assert turns == [("p6", 1), ("p6", 2)]
    assert of_type(game, os3.ExtraTurnTaken) == [os3.ExtraTurnTaken(player=PlayerId("p6"))]
    assert game.state.turn is not None and game.state.turn.player == "p6"


def test_le_juge_cancels_main_droite_play_passes_on() -> None:
    game = start(seats(EIGHT), active="p6")
    play(game, "p6 pass", "p6 roll beer beer beer dynamite dynamite", "p6 stop")
    play(game, "p6 target 0 p6", "p6 target 1 p6", "p6 target 2 p6")
    pass_windows_until(game, Window.END_OF_TURN)
    play(game, "p6 use main_droite", "p8 use le_juge")
    pass_windows(game)
    assert game.state.turn is not None and game.state.turn.player == "p7"


def pass_windows_until(game: Game, window: Window) -> None:
    while (q := game.awaiting) is not None and q.decision in WINDOWS and q.decision != window:
        game.play(PassWindow(player=q.player))  # type: ignore[arg-type]
    assert decision(game) == window


# --- windows tell nothing --------------------------------------------------------------------------


def test_a_use_is_accepted_only_at_its_window() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll arrow beer beer shoot1 gatling")
    pass_windows(game)
    with pytest.raises(NotAwaited, match="p2 cannot act now: the game awaits p1 to reroll or stop"):
        game.play(command("p2 use le_doc 0 beer"))  # type: ignore[arg-type]


def test_only_the_addressed_seat_passes_a_window() -> None:
    game = start(seats(EIGHT))
    play(game, "p1 roll arrow beer beer shoot1 gatling")
    with pytest.raises(IllegalCommand, match=r"only the server or the scorekeeper passes this window"):
        game.play(command("p2 pass"))  # type: ignore[arg-type]


SWAPPED = {"p2": SR.LE_JUGE, "p8": SR.LE_DOC, "p3": SR.LE_VILAIN, "p7": SR.LE_JOUEUR}


def test_refusals_to_a_non_holder_read_the_same_whatever_the_hidden_roles() -> None:
    texts: list[dict[str, str]] = []
    for table in (seats(EIGHT), seats(EIGHT, **SWAPPED), seats(EIGHT, p2=SR.LE_BIEN)):
        game = start(table)
        play(game, "p1 roll arrow beer beer shoot1 gatling")
        refusals = {}
        for p in ("p3", "p4", "p5", "p6", "p7"):
            for role in (SR.LE_DOC, SR.LE_JOUEUR, SR.MAIN_GAUCHE):
                use = UseRole(player=PlayerId(p), role=role, die=0, face=Face.BEER)
                with pytest.raises(IllegalCommand) as refused:
                    game.play(use)  # type: ignore[arg-type]
                refusals[f"{p} {role}"] = str(refused.value)
        texts.append(refusals)
    assert texts[0] == texts[1] == texts[2]
    assert set(texts[0].values()) == {
        f"{p} has no special role power that can act at this window" for p in ("p3", "p4", "p5", "p6", "p7")
    }


def questions_until_a_use(table: list[Seat], seed: int) -> list[tuple[str, str, tuple[int, ...]]]:
    """The public questions of a game whose windows are all passed and whose other answers are
    drawn from ``seed``, until the first elimination (it shows a card) or the end."""
    import random

    from tests.unit.rules.old_saloon.os3_play import random_command

    rng = random.Random(seed)
    game = Game.start(table, rules=OS3_RULES)
    asked = []
    while not game.is_over and not of_type(game, ev.PlayerEliminated) and len(asked) < 3_000:
        q = game.awaiting
        assert q is not None
        asked.append((q.player, q.decision, q.dice))
        game.play(random_command(game, rng, use_rate=0.0))
    return asked


@pytest.mark.parametrize("seed", range(6))
def test_windows_are_the_same_whoever_holds_the_hidden_cards(seed: int) -> None:
    base = questions_until_a_use(seats(EIGHT), seed)
    assert any(d in WINDOWS for _p, d, _dice in base)
    assert questions_until_a_use(seats(EIGHT, **SWAPPED), seed) == base
    # the base roles themselves moved between hidden seats: the questions are the same as long
    # as no card is shown
    moved = [
        ("p1", S, C.PAUL_REGRET, SR.L_OURS),
        ("p2", OUT, C.JOURDONNAIS, SR.LE_JOUEUR),
        ("p3", D, C.BLACK_JACK, SR.LE_DOC),
        ("p4", OUT, C.CALAMITY_JANET, SR.LE_MAUVAIS),
        ("p5", R, C.VULTURE_SAM, SR.MAIN_GAUCHE),
        ("p6", D, C.JESSE_JONES, SR.LE_JUGE),
        ("p7", R, C.WILLY_THE_KID, SR.MAIN_DROITE),
        ("p8", OUT, C.LUCKY_DUKE, SR.LE_VILAIN),
    ]
    assert questions_until_a_use(seats(moved), seed) == base


def test_a_window_ruled_out_by_public_facts_is_not_asked() -> None:
    # 4 players: no Deputy card is dealt, so Le Doc's and Le Juge's windows never open
    table = [
        Seat(player=PlayerId("p1"), role=S, character=C.PAUL_REGRET, special=SR.L_OURS),
        Seat(player=PlayerId("p2"), role=R, character=C.JOURDONNAIS, special=SR.MAIN_DROITE),
        Seat(player=PlayerId("p3"), role=OUT, character=C.BLACK_JACK, special=SR.LE_JOUEUR),
        Seat(player=PlayerId("p4"), role=OUT, character=C.WILLY_THE_KID, special=SR.LE_VILAIN),
    ]
    game = start(table)
    play(game, "p1 roll arrow beer beer shoot1 gatling")
    assert decision(game) == "reroll_or_stop"
    play(game, "p1 stop")
    assert decision(game) == Window.AFTER_LAST_ROLL
    play(game, "p3 use le_joueur")
    assert decision(game) == "roll"  # no Judge window: no Deputy at this table


def test_the_commands_read_back_from_their_text() -> None:
    texts = ("p2 use le_doc 0 beer", "p7 use le_vilain p7 p1", "p5 use le_mauvais p1", "p6 use main_droite")
    for text in texts:
        assert str(command(text)) == text
    assert command("p1 pass") == PassWindow(player=PlayerId("p1"))
    assert GainCause.BEER  # the beer cause the released heals keep


# --- windows close with the next input (RULINGS-expansions §0 "May", §OS3) -------------------------


def test_the_next_input_closes_the_open_window_unused() -> None:
    game = start(seats(EIGHT))
    game.play(command("p1 roll arrow beer beer shoot1 gatling"))  # type: ignore[arg-type]
    assert decision(game) == Window.AFTER_ROLL
    produced = game.play(command("p1 reroll 1 2"))  # type: ignore[arg-type]
    assert produced[0] == os3.WindowPassed(window=Window.AFTER_ROLL, player=PlayerId("p1"), implicit=True)
    assert [e for e in produced if isinstance(e, ev.RerollChosen)] == [
        ev.RerollChosen(player=PlayerId("p1"), dice=(1, 2))
    ]


def test_an_input_refused_once_the_windows_close_changes_nothing() -> None:
    game = start(seats(EIGHT))
    game.play(command("p1 roll arrow beer beer shoot1 gatling"))  # type: ignore[arg-type]
    events, version = list(game.events), game.state.version
    with pytest.raises(MalformedCommand, match="there is no die"):  # the reroll's own refusal
        game.play(command("p1 reroll 1 9"))  # type: ignore[arg-type]
    with pytest.raises(NotAwaited, match="p3 cannot act now: the game awaits p1 to reroll or stop"):
        game.play(command("p3 reroll 1"))  # type: ignore[arg-type]
    assert game.events == events and game.state.version == version
    assert decision(game) == Window.AFTER_ROLL


def test_a_use_closes_the_windows_before_its_own() -> None:
    """p6's turn ends (La Main Droite's window, his own); p7 uses Le Vilain at the start of his
    turn without anybody passing p6's window."""
    game = start(seats(EIGHT), ("p6", 8, 0), ("p7", 8, 2), active="p6")
    play(game, "p6 roll beer beer beer shoot1 shoot2", "p6 stop")
    for text in ("p6 target 3 p5", "p6 target 4 p4", "p6 target 0 p6", "p6 target 1 p6", "p6 target 2 p6"):
        game.play(command(text))  # type: ignore[arg-type]
    pass_windows_until(game, Window.END_OF_TURN)
    game.play(command("p7 use le_vilain p7 p1"))  # type: ignore[arg-type]
    passed = [e for e in of_type(game, os3.WindowPassed) if e.implicit]  # type: ignore[attr-defined]
    assert passed[-1] == os3.WindowPassed(window=Window.END_OF_TURN, player=PlayerId("p6"), implicit=True)
    assert of_type(game, os3.RolePowerUsed)[-1] == os3.RolePowerUsed(
        player=PlayerId("p7"),
        role=SR.LE_VILAIN,
        window=Window.START_OF_TURN,
        target=PlayerId("p7"),
        other=PlayerId("p1"),
    )
