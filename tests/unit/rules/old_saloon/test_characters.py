"""OS4, A Posse of New Characters (RULINGS-expansions §OS4, §10 X7; docs/rulings.md "OS4"): the
pool rules and each character's rule and rulings. Five seats unless said otherwise: p1 Sheriff,
p2 Renegade, p3 Outlaw, p4 Outlaw, p5 Deputy, clockwise (p1's neighbours are p2 and p5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from services.game.rules.dice import (
    Game,
    IllegalCommand,
    InvalidSetup,
    PlayerId,
    PlayerPosition,
    Position,
    Role,
    Seat,
    parse_command,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.decisions import timeout_command
from services.game.rules.dice.kinds import BASE, COWARD, LOUDMOUTH
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.old_saloon import characters as os4
from services.game.rules.dice.vocabulary import ArrowReason, Cause, CharacterId, GainCause
from services.game.rules.ruleset import ModuleId

OS1, OS2, OS4 = ModuleId.OS1, ModuleId.OS2, ModuleId.OS4
ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
# nobody here asks a question of his own: every question below is an OS4 character's or the turn's
FILLERS = ("paul_regret", "jourdonnais", "jesse_jones", "willy_the_kid", "lucky_duke")


def seats(**who: str) -> list[Seat]:
    """Five seats of fillers, with ``p3="molly_stark"`` and the like in their place."""
    characters = list(FILLERS)
    for player, character in who.items():
        characters[int(player[1:]) - 1] = character
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)  # type: ignore[arg-type]
        for i, (role, ch) in enumerate(zip(ROLES, characters, strict=True))
    ]


def start(
    modules: Sequence[ModuleId] = (OS4,),
    *players: PlayerPosition,
    chief_holder: str | None = None,
    **who: str,
) -> Game:
    position = Position(
        players=players,
        active_player=PlayerId("p1"),
        turn=1,
        chief_holder=None if chief_holder is None else PlayerId(chief_holder),
    )
    return Game.start(seats(**who), position, rules=rules_for(modules))


def at(player: str, life: int, arrows: int = 0) -> PlayerPosition:
    return PlayerPosition(player=PlayerId(player), life=life, arrows=arrows)


def play(game: Game, *texts: str) -> list[ev.Event]:
    produced: list[ev.Event] = []
    for text in texts:
        produced += game.play(parse_command(text))
    return produced


def asked(game: Game) -> tuple[str, str]:
    q = game.awaiting
    assert q is not None
    return q.player, q.decision.value


def life(game: Game, player: str) -> int:
    return game.state.by_id[PlayerId(player)].life


def arrows(game: Game, player: str) -> int:
    return game.state.by_id[PlayerId(player)].arrows


def of(events: Sequence[ev.Event], kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if type(e) is kind]


def replays(game: Game) -> None:
    """The fold of the events is the live state and asks the same question (a replay resumes)."""
    again = Game.replay(game.events, game.state.rules)
    assert again.state == game.state
    assert again.awaiting == game.awaiting


# --- the pool -----------------------------------------------------------------------------------


def test_the_pool_leaves_out_the_characters_whose_module_is_absent() -> None:
    alone = rules_for([OS4])
    needing = {CharacterId.JOSE_DELGADO, CharacterId.TEQUILA_JOE, CharacterId.APACHE_KID}
    assert needing.isdisjoint(alone.characters)
    assert CharacterId.MOLLY_STARK in alone.characters and len(alone.characters) == 16 + 5
    assert len(rules_for([OS1, OS4]).characters) == 16 + 7
    assert CharacterId.APACHE_KID not in rules_for([OS1, OS4]).characters
    assert len(rules_for([OS1, OS2, OS4]).characters) == 16 + 8
    assert CharacterId.JOSE_DELGADO not in rules_for([OS1]).characters  # OS4 brings him


@pytest.mark.parametrize(
    ("modules", "character", "why"),
    [
        ((OS4,), "jose_delgado", "jose_delgado is not in this game's character pool: it needs the Loud"),
        ((OS2, OS4), "tequila_joe", "tequila_joe is not in this game's character pool: it needs the Loud"),
        ((OS1, OS4), "apache_kid", "apache_kid is not in this game's character pool: it needs the Chief"),
    ],
)
def test_setup_refuses_a_left_out_character_naming_the_module_it_needs(
    modules: tuple[ModuleId, ...], character: str, why: str
) -> None:
    with pytest.raises(InvalidSetup, match=f"p2: {why}"):
        Game.start(seats(p2=character), rules=rules_for(modules))


# --- José Delgado and Tequila Joe (OS1's hand) ---------------------------------------------------


@pytest.mark.parametrize(
    ("character", "saloon", "kinds"),
    [
        ("jose_delgado", "loudmouth", (BASE,) * 5 + (LOUDMOUTH,)),
        ("jose_delgado", "coward", (BASE,) * 4 + (COWARD,)),
        ("tequila_joe", "coward", (BASE,) * 5 + (COWARD,)),
        ("tequila_joe", "loudmouth", (BASE,) * 4 + (LOUDMOUTH,)),
    ],
)
def test_jose_and_tequila_add_their_own_saloon_die_and_swap_the_other(
    character: str, saloon: str, kinds: tuple[object, ...]
) -> None:
    game = Game.start(seats(p1=character), rules=rules_for([OS1, OS4]))
    play(game, f"p1 saloon {saloon}")
    assert game.state.turn is not None and game.state.turn.kinds == kinds
    q = game.awaiting
    assert q is not None and q.dice == tuple(range(len(kinds)))


# --- Apache Kid -------------------------------------------------------------------------------------


def test_apache_kid_takes_the_chiefs_arrow_from_its_holder_per_arrow_face() -> None:
    game = start((OS2, OS4), at("p3", 9, 2), chief_holder="p3", p1="apache_kid")
    pile = game.state.arrow_pile
    play(game, "p1 roll arrow arrow beer beer beer")
    assert asked(game) == ("p1", "apache_take_chief")
    produced = play(game, "p1 seize-chief")
    seized = os4.ChiefArrowSeized(player=PlayerId("p1"), holder=PlayerId("p3"))
    assert of(produced, os4.ChiefArrowSeized) == [seized]
    # the second face: he holds it now, so that face takes a regular token from the pile
    assert game.state.chief_holder == "p1" and arrows(game, "p3") == 1 and arrows(game, "p1") == 2
    assert game.state.arrow_pile == pile - 1
    assert asked(game) == ("p1", "reroll_or_stop")
    replays(game)


def test_apache_kid_is_asked_again_for_each_face_and_declining_takes_from_the_pile() -> None:
    game = start((OS2, OS4), at("p3", 9, 1), chief_holder="p3", p1="apache_kid")
    pile = game.state.arrow_pile
    play(game, "p1 roll arrow arrow beer beer beer")
    produced = play(game, "p1 decline")
    assert of(produced, ev.ArrowTaken) == [ev.ArrowTaken(player=PlayerId("p1"), reason=ArrowReason.ROLL)]
    assert asked(game) == ("p1", "apache_take_chief")  # the second face
    assert timeout_command(game.state, game.awaiting) == parse_command("p1 decline")  # type: ignore[arg-type]
    play(game, "p1 seize-chief")
    assert game.state.arrow_pile == pile - 1 and game.state.chief_holder == "p1"


def test_apache_kid_seizing_with_one_token_left_brings_no_attack() -> None:
    others = [at(p, 7, 2) for p in ("p2", "p4", "p5")]
    game = start((OS2, OS4), at("p3", 9, 2), *others, chief_holder="p3", p1="apache_kid")
    assert game.state.arrow_pile == 2
    play(game, "p1 roll arrow beer beer beer beer", "p1 seize-chief")
    assert not of(game.events, ev.IndiansAttacked) and game.state.arrow_pile == 2


def test_apache_kid_is_not_asked_while_the_chief_is_in_the_pile() -> None:
    game = start((OS2, OS4), p1="apache_kid")
    play(game, "p1 roll arrow beer beer beer beer")
    assert asked(game) == ("p1", "arrow_token")  # OS2's question, not his


# --- Bill Noface ---------------------------------------------------------------------------------------


def test_bill_noface_rerolled_arrows_take_nothing() -> None:
    game = start((OS4,), p1="bill_noface")
    produced = play(game, "p1 roll arrow arrow beer beer beer")
    assert of(produced, os4.ArrowsHeldBack) == [os4.ArrowsHeldBack(player=PlayerId("p1"), count=2)]
    assert arrows(game, "p1") == 0 and asked(game) == ("p1", "reroll_or_stop")
    play(game, "p1 reroll 0 1", "p1 roll beer beer", "p1 stop")
    assert not of(game.events, ev.ArrowTaken) and not of(game.events, os4.FinalArrowsDue)


def test_bill_noface_takes_his_final_arrows_after_his_last_roll() -> None:
    game = start((OS4,), p1="bill_noface")
    play(game, "p1 roll arrow beer beer beer beer", "p1 reroll 1", "p1 roll arrow")
    assert arrows(game, "p1") == 0
    produced = play(game, "p1 stop")
    kinds = [type(e) for e in produced]
    assert kinds[:4] == [ev.DiceFinalized, os4.FinalArrowsDue, ev.ArrowTaken, ev.ArrowTaken]
    assert arrows(game, "p1") == 2


def test_bill_noface_final_arrows_come_before_the_dynamite() -> None:
    game = start((OS4,), p1="bill_noface")
    produced = play(game, "p1 roll arrow dynamite dynamite dynamite beer")
    kinds = [type(e) for e in produced]
    assert kinds.index(ev.ArrowTaken) < kinds.index(ev.DynamiteExploded)
    assert arrows(game, "p1") == 1


def test_bill_noface_bullets_stay_immediate() -> None:
    game = start((OS1, OS4), p1="bill_noface")
    play(game, "p1 saloon loudmouth")
    produced = play(game, "p1 roll arrow beer beer beer bullet")
    assert of(produced, ev.LifeLost) and not of(produced, ev.ArrowTaken)


# --- Elena Fuente ------------------------------------------------------------------------------------


def test_elena_gives_one_of_a_rolls_arrows_and_is_asked_per_roll() -> None:
    game = start((OS4,), p1="elena_fuente")
    play(game, "p1 roll arrow arrow beer beer beer")
    q = game.awaiting
    assert q is not None and (q.player, q.decision.value, q.max_count) == ("p1", "elena_give", 2)
    produced = play(game, "p1 give-arrow p3")
    assert [type(e) for e in produced][:3] == [os4.ArrowGiven, ev.ArrowTaken, ev.ArrowTaken]
    assert (arrows(game, "p3"), arrows(game, "p1"), game.state.arrow_pile) == (1, 1, 7)
    play(game, "p1 reroll 2", "p1 roll arrow")
    assert asked(game) == ("p1", "elena_give")  # a new roll, a new gift
    play(game, "p1 decline")
    assert arrows(game, "p1") == 2


def test_elenas_gift_of_the_last_token_brings_the_attack_with_the_recipient_holding_it() -> None:
    held = [at("p2", 7, 2), at("p4", 8, 2), at("p5", 8, 2)]
    game = start((OS4,), *held, at("p3", 9, 2), p1="elena_fuente")
    assert game.state.arrow_pile == 1
    play(game, "p1 roll arrow beer beer beer beer")
    produced = play(game, "p1 give-arrow p3")
    assert of(produced, ev.IndiansAttacked)
    lost = {e.player: e.amount for e in of(produced, ev.LifeLost)}  # type: ignore[attr-defined]
    assert lost["p3"] == 3 and "p1" not in lost


def test_elena_chooses_the_chiefs_arrow_for_her_gift_and_is_refused_what_the_rules_forbid() -> None:
    game = start((OS2, OS4), p1="elena_fuente")
    play(game, "p1 roll arrow beer beer beer beer")
    with pytest.raises(IllegalCommand, match="to another player, not to herself"):
        play(game, "p1 give-arrow p1")
    play(game, "p1 give-arrow p4 chief")
    assert game.state.chief_holder == "p4"
    no_chief = start((OS4,), p1="elena_fuente")
    play(no_chief, "p1 roll arrow beer beer beer beer")
    with pytest.raises(IllegalCommand, match="the Chief's Arrow is not in the pile"):
        play(no_chief, "p1 give-arrow p4 chief")


# --- Vera Custer --------------------------------------------------------------------------------------


def test_x7_vera_hit_by_a_shoot1_and_a_shoot2x2_loses_two() -> None:
    # Rose Doolan reaches Vera at distance 2 with both faces
    game = start((OS1, OS4), p1="rose_doolan", p3="vera_custer")
    play(game, "p1 saloon loudmouth", "p1 roll shoot1 beer beer beer shoot2x2", "p1 stop")
    produced = play(game, "p1 target 0 p3", "p1 target 4 p3", "p1 target 4 p3")
    lost = of(produced, ev.LifeLost)
    assert {e.player for e in lost} == {"p3"} and sum(e.amount for e in lost) == 2  # type: ignore[attr-defined]
    assert life(game, "p3") == 5


def test_vera_hit_by_one_shot_loses_nothing_but_the_gatling_costs_her_in_full() -> None:
    game = start((OS4,), p2="vera_custer")
    play(game, "p1 roll shoot1 gatling gatling gatling beer", "p1 stop", "p1 target 0 p2", "p1 target 4 p1")
    lost = [(e.player, e.cause) for e in of(game.events, ev.LifeLost)]  # type: ignore[attr-defined]
    assert ("p2", Cause.SHOOT1) not in lost and ("p2", Cause.GATLING) in lost
    assert life(game, "p2") == 7 - 1


# --- Doc Holyday ----------------------------------------------------------------------------------------


def test_doc_holyday_gains_two_after_three_shots_before_the_beers() -> None:
    game = start((OS4,), at("p1", 5), p1="doc_holyday")
    play(game, "p1 roll shoot1 shoot1 shoot2 beer beer", "p1 stop")
    produced = play(game, "p1 target 0 p2", "p1 target 1 p5", "p1 target 2 p3")
    kinds = [type(e) for e in produced]
    assert kinds.index(os4.ShotsRewarded) > kinds.index(ev.ShotsFired)
    assert of(produced, ev.LifeGained) == [
        ev.LifeGained(player=PlayerId("p1"), amount=2, cause=GainCause.THREE_SHOTS_HEAL)
    ]
    assert asked(game) == ("p1", "beer_target") and life(game, "p1") == 7


def test_doc_holyday_counts_symbols_and_needs_three() -> None:
    two = start((OS4,), at("p1", 5), p1="doc_holyday")
    play(two, "p1 roll shoot1 shoot1 beer beer beer", "p1 stop", "p1 target 0 p2", "p1 target 1 p5")
    assert not of(two.events, os4.ShotsRewarded)
    double = start((OS1, OS4), at("p1", 5), p1="doc_holyday")
    play(double, "p1 saloon loudmouth", "p1 roll shoot1 beer beer beer shoot1x2", "p1 stop")
    play(double, "p1 target 0 p2", "p1 target 4 p5", "p1 target 4 p2")
    assert len(of(double.events, os4.ShotsRewarded)) == 1 and life(double, "p1") == 7


# --- Molly Stark ------------------------------------------------------------------------------------------


def test_molly_takes_the_dynamite_of_the_active_player() -> None:
    game = start((OS4,), p3="molly_stark")
    play(game, "p1 roll dynamite dynamite dynamite beer beer")
    q = game.awaiting
    assert q is not None and (q.player, q.decision.value, q.max_count) == ("p3", "molly_take", 1)
    replays(game)
    produced = play(game, "p3 take-loss p1")
    assert of(produced, ev.LifeLost) == [
        ev.LifeLost(player=PlayerId("p3"), amount=1, source=None, cause=Cause.DYNAMITE)
    ]
    assert life(game, "p1") == 11 and life(game, "p3") == 7


def test_molly_is_asked_per_loss_clockwise_and_may_decline() -> None:
    game = start((OS4,), p3="molly_stark")
    play(game, "p1 roll shoot1 shoot1 beer beer beer", "p1 stop", "p1 target 0 p5", "p1 target 1 p2")
    with pytest.raises(IllegalCommand, match="the loss p3 may take now is p2's"):
        play(game, "p3 take-loss p5")
    play(game, "p3 take-loss p2")
    assert asked(game) == ("p3", "molly_take")  # p5's, after p2's
    replays(game)
    produced = play(game, "p3 decline")
    lost = [(e.player, e.source, e.cause) for e in of(produced, ev.LifeLost)]  # type: ignore[attr-defined]
    assert sorted(lost) == [("p3", "p1", Cause.SHOOT1), ("p5", "p1", Cause.SHOOT1)]
    assert life(game, "p2") == 7 and life(game, "p3") == 7


def test_molly_never_takes_more_than_she_has_left_in_the_step() -> None:
    # both hit by the gatling: at 2 life Molly has 1 to spare, so she is asked about one loss only
    game = start((OS4,), at("p3", 2), p3="molly_stark")
    play(game, "p1 roll gatling gatling gatling beer beer", "p1 stop", "p1 target 3 p1", "p1 target 4 p1")
    assert asked(game) == ("p3", "molly_take")
    play(game, "p3 take-loss p2")
    assert game.state.held is None and len(of(game.events, os4.LossTakenOver)) == 1
    assert (life(game, "p4"), life(game, "p5")) == (7, 7)
    assert life(game, "p3") == 0 and not game.state.by_id[PlayerId("p3")].alive  # she may die of it
    assert life(game, "p2") == 7


def test_molly_is_not_asked_about_a_loss_larger_than_her_life_nor_about_her_own() -> None:
    game = start((OS4,), at("p1", 11, 5), at("p4", 5, 3), at("p3", 2), p3="molly_stark")
    play(game, "p1 roll arrow beer beer beer beer")  # the last token: p1 loses 6, p4 3, both over 2
    assert of(game.events, ev.IndiansAttacked) and not of(game.events, os4.LossesHeld)
    assert (life(game, "p1"), life(game, "p4"), life(game, "p3")) == (5, 2, 2)
    own = start((OS4,), p1="molly_stark")
    play(own, "p1 roll dynamite dynamite dynamite beer beer")
    assert not of(own.events, os4.LossesHeld) and life(own, "p1") == 9


def test_molly_and_the_indian_attack_the_arrows_return_once_the_losses_apply() -> None:
    # p2 is Jourdonnais: his cap is applied before Molly is asked
    held = [at("p2", 7, 3), at("p4", 8, 3), at("p5", 8, 2)]
    game = start((OS4,), *held, p3="molly_stark")
    play(game, "p1 roll arrow arrow beer beer beer")  # the first takes the last token
    q = game.awaiting
    assert q is not None and (q.player, q.decision.value, q.max_count) == ("p3", "molly_take", 1)
    assert game.state.held is not None
    replays(game)
    play(game, "p3 decline", "p3 decline")  # p1's 1, then p2's 1
    assert game.awaiting is not None and game.awaiting.max_count == 3
    play(game, "p3 take-loss p4")  # p4's 3
    assert asked(game) == ("p3", "molly_take")  # p5's 2: 3 + 2 is within her 9
    produced = play(game, "p3 decline")
    kinds = [type(e) for e in produced]
    assert kinds.index(ev.AllArrowsReturned) > max(i for i, k in enumerate(kinds) if k is ev.LifeLost)
    lives = tuple(life(game, p) for p in ("p1", "p2", "p3", "p4", "p5"))
    assert lives == (10, 6, 5, 8, 6)
    # the roll's second arrow then takes a token from the full pile
    assert arrows(game, "p1") == 1 and game.state.held is None


def test_molly_is_asked_before_bart_cassidys_arrows_and_bart_only_if_she_declines() -> None:
    game = start((OS4,), p2="bart_cassidy", p3="molly_stark")
    play(game, "p1 roll shoot1 beer beer beer beer", "p1 stop", "p1 target 0 p2")
    assert asked(game) == ("p3", "molly_take")
    play(game, "p3 take-loss p2")
    assert not of(game.events, ev.ArrowsInsteadChosen) and life(game, "p2") == 8 and life(game, "p3") == 7
    declined = start((OS4,), p2="bart_cassidy", p3="molly_stark")
    play(declined, "p1 roll shoot1 beer beer beer beer", "p1 stop", "p1 target 0 p2", "p3 decline")
    assert asked(declined) == ("p2", "arrows_instead")
    play(declined, "p2 decline")
    assert life(declined, "p2") == 7 and life(declined, "p3") == 8


def test_molly_taking_el_gringos_loss_gives_the_shooter_no_arrow() -> None:
    game = start((OS4,), p2="el_gringo", p3="molly_stark")
    play(game, "p1 roll shoot1 beer beer beer beer", "p1 stop", "p1 target 0 p2", "p3 take-loss p2")
    assert arrows(game, "p1") == 0 and life(game, "p2") == 7


def test_molly_is_offered_veras_loss_after_veras_own_rule() -> None:
    game = start((OS1, OS4), p1="rose_doolan", p3="vera_custer", p4="molly_stark")
    play(game, "p1 saloon loudmouth", "p1 roll shoot1 beer beer beer shoot2x2", "p1 stop")
    play(game, "p1 target 0 p3", "p1 target 4 p3", "p1 target 4 p3")
    q = game.awaiting
    assert q is not None and (q.player, q.max_count) == ("p4", 2)
    play(game, "p4 take-loss p3")
    assert life(game, "p3") == 7 and life(game, "p4") == 8 - 2


def test_without_molly_no_loss_is_held() -> None:
    game = start((OS4,), p2="vera_custer")
    play(game, "p1 roll dynamite dynamite dynamite beer beer")
    assert not of(game.events, os4.LossesHeld) and life(game, "p1") == 10
