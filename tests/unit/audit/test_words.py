"""Every game event in plain words, never naming a role."""

from __future__ import annotations

import re

import msgspec
import pytest

from services.game.application.lifecycle import (
    DecisionTimedOut,
    GameAbandoned,
    GameCreated,
    GameMode,
    PlayerJoined,
    SeatsDealt,
    SeedRevealed,
)
from services.game.audit.words import Unreadable, referee_words
from services.game.rules.dice import EVENT_TYPES, PlayerId, PlayerResult, Role, Side
from services.game.rules.dice import events as ev
from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.old_saloon import characters as os4
from services.game.rules.dice.old_saloon import chief_arrow as os2
from services.game.rules.dice.old_saloon import ghost as os5
from services.game.rules.dice.old_saloon import saloon_dice as os1
from services.game.rules.dice.old_saloon import special_roles as os3
from services.game.rules.dice.undead import characters as ua3
from services.game.rules.dice.undead import duels as ua1
from services.game.rules.dice.undead import rage as ua2
from services.game.rules.dice.undead import zombies as ua4
from services.game.rules.dice.vocabulary import ArrowReason, Cause, Face, GainCause, RollingEnd, SpecialRole
from tests.unit.audit.games import TABLE_SEATS, online_game

P1, P2, P3 = PlayerId("p1"), PlayerId("p2"), PlayerId("p3")
ROLE_WORD = re.compile("|".join(r.value for r in Role), re.IGNORECASE)

EXAMPLES: list[tuple[msgspec.Struct, str]] = [
    (ev.GameStarted(seats=tuple(TABLE_SEATS)), "the game started with 4 players"),
    (ev.TurnStarted(player=P1, turn=3), "p1 started turn 3"),
    (ev.TargetChosen(player=P1, target=P2), "p1 chose p2 to gain 1 life"),
    (ev.TargetChosen(player=P1, target=P2, die=2, as_face=Face.SHOOT2), "p1 aimed die 3 as a shoot2 at p2"),
    (ev.RerollChosen(player=P1, dice=(0, 3)), "p1 chose to reroll dice 1, 4"),
    (
        ev.DiceRolled(player=P2, roll=1, dice=(0, 1, 2, 3, 4), faces=(Face.ARROW,) * 4 + (Face.BEER,)),
        "p2 rolled arrow arrow arrow arrow beer",
    ),
    (
        ev.DiceRolled(player=P2, roll=2, dice=(1, 4), faces=(Face.SHOOT1, Face.BEER)),
        "p2 rerolled dice 2, 5: shoot1 beer",
    ),
    (
        ev.DiceFinalized(player=P2, faces=(Face.DYNAMITE,) * 5, reason=RollingEnd.THREE_DYNAMITE),
        "p2 finished rolling with dynamite dynamite dynamite dynamite dynamite (three dynamite)",
    ),
    (ev.ArrowTaken(player=P1, reason=ArrowReason.ROLL), "p1 took an arrow"),
    (ev.ChiefArrowTaken(player=P1, reason=ArrowReason.ROLL), "p1 took the Chief's Arrow"),
    (os1.SaloonDieChosen(player=P1, die="loudmouth"), "p1 chose to roll the Loudmouth die"),
    (os1.BrokenArrowUsed(player=P1, target=P2), "p1's broken arrow made p2 return an arrow"),
    (os1.BulletHit(player=P1), "p1 rolled a bullet"),
    (
        ev.ChiefArrowsInsteadChosen(player=P1, count=2, step="shots"),
        "p1 chose to take 2 arrows, the Chief's Arrow first, instead of losing life",
    ),
    (os5.BecameGhost(player=P1, turn=3), "p1 became the Ghost"),
    (
        os3.RolePowerUsed(player=P1, role=SpecialRole.LE_DOC, window="role_window_after_roll"),
        "p1 revealed Le Doc and used its power",
    ),
    (os3.RoleUseCancelled(player=P1, cancelled=P2), "p1 cancelled p2's use of a special role"),
    (
        os3.WindowPassed(window="role_window_after_roll", player=P1),
        "nobody used a special role at this moment",
    ),
    (os3.SheriffChanged(player=P1, previous=P2), "p1 became the Sheriff and p2 a Deputy"),
    (os3.ArrowsSwapped(player=P1, first=P2, second=P3), "p1 swapped the arrows of p2 and p3"),
    (os3.DieFaceSet(player=P1, die=2, face=Face.BEER), "p1 set die 3 to beer"),
    (os3.RerollForced(player=P1, target=P2, dice=(0, 1)), "p1 made p2 reroll every die"),
    (
        os3.GainHeld(player=P2, amount=1, cause=GainCause.BEER),
        "p2's gain of 1 life waits for the special roles",
    ),
    (os3.GainCancelled(player=P1, target=P2), "p1 cancelled p2's gain of life"),
    (os3.GainsReleased(), "the gains of life waiting applied"),
    (
        os3.EliminationsHeld(source=None, players=(P2,), causes=(Cause.DYNAMITE,)),
        "p2 at 0 life, waiting for the special roles",
    ),
    (os3.EliminationPrevented(player=P1, target=P2, life=2), "p1 saved p2, who stays in with 2 life"),
    (os3.EliminationsReleased(), "the eliminations waiting applied"),
    (os3.ExtraTurnGranted(player=P1), "p1 will play an extra turn"),
    (os3.ExtraTurnTaken(player=P1), "p1 plays an extra turn"),
    (
        os5.GhostTokenGiven(player=P1, target=P2, face=Face.BEER, x2=True),
        "the Ghost p1 gave the beer token and the x2 token to p2",
    ),
    (os5.GhostDiceSet(player=P2, dice=(0, 1), face=Face.BEER), "p2's Ghost token set dice 1 and 2 to beer"),
    (os5.GhostTokensReturned(player=P2), "p2's Ghost tokens went back to the Ghost"),
    (ua2.RageDrawn(player=P2, card="r15"), "p2 drew a Rage card face down"),
    (ua2.RageRevealed(player=P2, cards=("r15", "r02")), "p2 revealed the Rage cards r15, r02"),
    (ua2.RageReturned(player=P2, count=1), "p2's 1 face-down Rage card went to the discards unseen"),
    (  # Pixie Pete's two cards and his choice are his alone: the words name neither card
        ua2.RageKept(player=P2, card="r15", returned="r02", slot=1),
        "p2 kept one of the two Rage cards he drew and shuffled the other back",
    ),
    (
        ua4.BoneyardRevealed(player=P2, card="b09", hands=2, turn=4),
        "p2 revealed the Boneyard card b09, showing 2 hands",
    ),
    (ua4.BoneyardShuffled(cards=("b01",)), "the no-hands Boneyard card b01 went back into the pile"),
    (
        ua4.OutbreakTriggered(turn=4, hands=5, alive=3),
        "5 hands showing outnumbered the 3 players alive: the zombie outbreak begins with the next turn",
    ),
    (
        ua4.OutbreakBegan(turn=5, zombies=(P2, PlayerId("p5")), life=3, master=P3),
        "the zombie outbreak began: p2, p5 rose as zombies with 3 life; p3 became the Zombie Master",
    ),
    (ua1.WoundDrawn(player=P2, card=Face.SHOOT1), "p2 drew the shoot1 wound token"),
    (ua1.WoundOwed(player=P2), "p2 must draw a wound token"),
    (ua1.WoundsReturned(player=P2, tokens=(Face.BEER,)), "p2's wound tokens went back into the pile (1)"),
    (ua1.WoundDynamiteSet(player=P2), "p2's dynamite wound token counts as one more dynamite"),
    (ua1.WhiskeyDrunk(player=P2), "p2 drank a whiskey"),
    (ua1.WhiskeyRage(player=P2), "p2 held no wound token and must draw a Rage card"),
    (ua1.WoundDiscarded(player=P2, token=Face.BEER), "p2 put the beer wound token back"),
    (ua1.WoundsApplied(player=P2, dice=(2,)), "p2's wound tokens cancelled dice 3"),
    (ua3.ShotHealed(player=P2, target=P1), "p2 healed p1 for a shoot1 he used"),
    (ua3.ShotHealDeclined(player=P2), "p2 healed nobody for a shoot1 he used"),
    (ua3.SecondHealGiven(player=P2, target=P1, die=3), "p2 gave the second heal of his beer (die 4) to p1"),
    (ua3.SecondHealDeclined(player=P2, die=3), "p2 gave the second heal of his beer (die 4) to nobody"),
    (ua3.DynamiteConverted(player=P2, die=0), "p2 turned die 1 from a dynamite to a beer"),
    (ua3.ConvertDeclined(player=P2), "p2 kept this roll's dynamite"),
    (ua3.DieBought(player=P2, die=1, face=Face.ARROW), "p2 paid 1 life to set die 2 to arrow"),
    (ua3.DieNotBought(player=P2), "p2 left his dice as rolled"),
    (ua3.RageMoved(player=P2, giver=P1, taker=P2, slot=0), "p2 moved one of p1's face-down Rage cards to p2"),
    (ua3.RageMoveDeclined(player=P2), "p2 moved no Rage card"),
    (ua1.DuelChallenged(player=P1, target=P2), "p1 challenged p2 to a duel"),
    (ua1.DuelThrown(player=P2, face=Face.GATLING), "p2 threw gatling in the duel"),
    (ua1.DuelLost(player=P2, winner=P1), "p2 lost the duel to p1"),
    (ua1.DuelLossSettled(player=P2), "p2's loss for the duel applied"),
    (ua1.DuelsUnused(player=P1), "p1's other duels found nobody to challenge"),
    (ua1.DuelThrowHeld(player=P1), "p1's throw would lose the duel; he may throw again"),
    (ua1.DuelThrowRerolled(player=P1), "p1 threw his Duel die again"),
    (ua1.DuelThrowKept(player=P1), "p1 let his throw stand"),
    (os2.ArrowTokenChosen(player=P1, chief=True), "p1 chose to take the Chief's Arrow"),
    (os4.ArrowsHeldBack(player=P1, count=2), "p1's 2 arrows rolled wait for his last roll"),
    (os4.FinalArrowsDue(player=P1, count=1), "p1's final dice took 1 arrow after his last roll"),
    (os4.ChiefArrowSeized(player=P1, holder=P2), "p1 took the Chief's Arrow from p2"),
    (os4.ArrowGiven(player=P1, target=P3), "p1 gave an arrow to p3"),
    (os4.ArrowGiven(player=P1, target=P3, chief=True), "p1 gave the Chief's Arrow to p3"),
    (os4.PowerDeclined(player=P1, decision=os4.ELENA_GIVE), "p1 kept this roll's arrows"),
    (
        os4.PowerDeclined(player=P1, decision=os4.APACHE_TAKE_CHIEF),
        "p1 declined to take the Chief's Arrow from its holder",
    ),
    (os4.ShotsRewarded(player=P1), "p1 used three or more shots"),
    (
        os4.LossesHeld(
            kind="indian_attack", losses=(os4.HeldLoss(player=P2, amount=2, cause=Cause.INDIAN_ATTACK),)
        ),
        "the losses of the indian attack waited for Molly Stark",
    ),
    (os4.LossTakenOver(player=P1, target=P2), "p1 chose to lose p2's life in his place"),
    (os4.LossLeft(player=P1, target=P2), "p1 left p2 his loss of life"),
    (
        ev.LifeGained(player=P1, amount=2, cause=GainCause.THREE_SHOTS_HEAL),
        "p1 gained 2 life from Doc Holyday's shots",
    ),
    (
        ev.ArrowsReturned(player=P1, count=3, reason=ArrowReason.GATLING),
        "p1 returned 3 arrows for the gatling",
    ),
    (ev.IndiansAttacked(), "the Indians attacked"),
    (ev.AllArrowsReturned(), "all arrows went back to the pile"),
    (ev.DynamiteExploded(player=P1), "the dynamite exploded on p1"),
    (
        ev.ShotDoubled(player=P1, shot_die=0, beer_die=3),
        "p1 spent the beer of die 4 to double the shot of die 1",
    ),
    (ev.AbilityDeclined(player=P1, decision="double_shot"), "p1 declined to spend a beer to double a shot"),
    (
        ev.ArrowsInsteadChosen(player=P2, count=2, step="shots"),
        "p2 chose to take 2 arrows instead of losing life",
    ),
    (ev.ShotsFired(player=P1), "p1 fired the shots"),
    (ev.GatlingFired(player=P1), "p1 fired the gatling"),
    (
        ev.LifeLost(player=P3, amount=1, source=P1, cause=Cause.SHOOT1, die=0),
        "p3 lost 1 life to a shoot1 from p1",
    ),
    (
        ev.LifeLost(player=P3, amount=2, source=None, cause=Cause.INDIAN_ATTACK),
        "p3 lost 2 life to the Indian attack",
    ),
    (
        ev.LifeGained(player=P2, amount=1, cause=GainCause.BEER, source=P1),
        "p2 gained 1 life from a beer given by p1",
    ),
    (ev.ArrowsRemoved(player=P1, from_players=(P2, P3)), "p1 made p2, p3 return an arrow each"),
    (
        ev.PlayerEliminated(player=P2, role=Role.OUTLAW, source=P1, cause=Cause.SHOOT2, turn=4),
        "p2 was eliminated by p1 (shoot2)",
    ),
    (
        ev.PlayerEliminated(player=P2, role=Role.DEPUTY, source=None, cause=Cause.DYNAMITE, turn=4),
        "p2 was eliminated by the dynamite",
    ),
    (ev.TurnEnded(player=P1), "p1 ended the turn"),
    (
        ev.GameEnded(
            winning_side=Side.LAW,
            winners=(P1,),
            results=(
                PlayerResult(
                    player=P1,
                    role=Role.SHERIFF,
                    character=CharacterId.PAUL_REGRET,
                    side=Side.LAW,
                    won=True,
                    alive=True,
                ),
            ),
            turn=9,
        ),
        "the game ended with a Law win",
    ),
    (
        GameCreated(game_id="g", mode=GameMode.ONLINE, player_count=5),
        "the game was created (online, 5 players)",
    ),
    (PlayerJoined(member_id="m1", name="Ann"), "Ann (m1) joined"),
    (SeatsDealt(members=("m1", "m2", "m3")), "the 3 seats were dealt"),
    (SeedRevealed(seed="00"), "the dice seed was revealed"),
    (
        DecisionTimedOut(player=P2, decision="reroll_or_stop", applied="p2 stop"),
        "p2 ran out of time; 'p2 stop' was played for them",
    ),
    (GameAbandoned(reason="rain"), "the game was abandoned (rain)"),
    (Unreadable(type="LifeLost", reason="bad"), "an unreadable LifeLost"),
]


@pytest.mark.parametrize(("event", "words"), EXAMPLES, ids=[type(e).__name__ for e, _ in EXAMPLES])
def test_an_event_in_words(event: msgspec.Struct, words: str) -> None:
    assert referee_words(event) == words


def test_every_engine_event_type_has_words_of_its_own() -> None:
    covered = {type(e).__name__ for e, _ in EXAMPLES}
    assert set(EVENT_TYPES) <= covered


def test_no_event_of_a_whole_game_is_described_with_a_role() -> None:
    for rng_seed in (1, 2, 3):
        for event in online_game(6, rng_seed=rng_seed):
            words = referee_words(event)
            if not isinstance(event, ev.GameEnded):  # the end of a game makes every role public
                assert not ROLE_WORD.search(words), words
            assert words != type(event).__name__
