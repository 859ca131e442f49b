"""Game events in plain words, for an audit's findings and for referees.

``referee_words`` renders any event of a game's stream (the engine's and the lifecycle's) as
a short past-tense clause: "p3 lost 1 life to a shoot1 from p1", "the Indians attacked",
"p2 was eliminated by p1 (shoot2)". It never names a role, so its lines are safe in the
report of a game whose roles are still hidden; only ``GameEnded`` names a side, and every
role is public once a game has ended.

These lines are written for people and may be reworded; ``services.game.records.trace``
keeps the stable one-line traces that scenarios match exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from services.game.application.lifecycle import (
    DecisionTimedOut,
    EntryTakenBack,
    GameAbandoned,
    GameCreated,
    PlayerJoined,
    SeatReplaced,
    SeatsDealt,
    SeedRevealed,
)
from services.game.audit.card_words import card_words
from services.game.rules.dice import CHARACTERS, CharacterId, Role, Side
from services.game.rules.dice import events as ev
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


class Unreadable(msgspec.Struct, frozen=True, kw_only=True):
    """Stands in for a stored event that cannot be decoded (edited data, unknown type)."""

    type: str
    reason: str


_CAUSE = {
    Cause.SHOOT1: "a shoot1",
    Cause.SHOOT2: "a shoot2",
    Cause.GATLING: "the gatling",
    Cause.BULLET: "a bullet",
    Cause.INDIAN_ATTACK: "the Indian attack",
    Cause.DYNAMITE: "the dynamite",
    Cause.DUEL: "a duel",
    Cause.PRICE: "the price of Chuck Wengam's die",
}

_GAIN = {
    GainCause.BEER: "from a beer",
    GainCause.TURN_START_HEAL: "from Sid Ketchum's heal",
    GainCause.END_OF_TURN_HEAL: "from Suzy Lafayette's ability",
    GainCause.ELIMINATION_REWARD: "as Vulture Sam's reward",
    GainCause.THREE_SHOTS_HEAL: "from Doc Holyday's shots",
    GainCause.WHISKEY: "from a whiskey",
}

_ARROW_TAKEN = {
    ArrowReason.ROLL: "",
    ArrowReason.INSTEAD_OF_LIFE: " instead of losing life",
    ArrowReason.HIT_BACK: " for hitting El Gringo",
    ArrowReason.RAGE: " for a Rage card's arrow",
}

_ARROWS_RETURNED = {
    ArrowReason.GATLING: "for the gatling",
    ArrowReason.DISCARD_ON_LOSS: "for the life just lost",
    ArrowReason.REMOVED_BY_GATLING_FACE: "to Kit Carlson's gatling",
}

_FINAL = {
    RollingEnd.NO_REROLLS_LEFT: "no rerolls left",
    RollingEnd.THREE_DYNAMITE: "three dynamite",
}

_DECLINED = {
    "apache_take_chief": "take the Chief's Arrow from its holder",
    "double_shot": "spend a beer to double a shot",
    "arrows_instead": "take arrows instead of losing life",
    "discard_arrows": "discard arrows for the life just lost",
    "remove_arrows": "make players return arrows",
}

_WIN = {
    Side.LAW: "a Law win",
    Side.OUTLAWS: "an Outlaw win",
    Side.RENEGADE: "a Renegade win",
    Side.DEPUTY: "a Deputy win",
    Side.OUTLAW: "an Outlaw win",
}

_SIDE = {
    Side.LAW: "the Law",
    Side.OUTLAWS: "the Outlaws",
    Side.RENEGADE: "the Renegade",
    Side.DEPUTY: "the Deputy",
    Side.OUTLAW: "the Outlaw",
}


def faces(shown: Sequence[Face]) -> str:
    """``arrow beer shoot1``: faces as the record format writes them."""
    return " ".join(shown)


def dice(indexes: Sequence[int]) -> str:
    """Dice as people count them, from 1 (the engine's indexes are 0-based): "1, 4"."""
    return ", ".join(str(i + 1) for i in indexes)


def cause_words(cause: Cause) -> str:
    """What took the life: "a shoot1", "the Indian attack"."""
    return _CAUSE.get(cause, str(cause))


def win_words(side: Side | None) -> str:
    """The result in words: "an Outlaw win", or "no winner" (three players all died at once)."""
    return "no winner" if side is None else _WIN.get(side, f"a {side} win")


def side_words(side: Side | None) -> str:
    """Who wins: "the Law", "the Outlaws", or "nobody"."""
    return "nobody" if side is None else _SIDE.get(side, f"the {side}")


def role_words(role: Role) -> str:
    """A role in words, "the Sheriff"; only for roles the rules have made public."""
    return f"the {role.value.title()}"


def character_name(character: CharacterId) -> str:
    known = CHARACTERS.get(character)
    # a module's character (OS4's molly_stark) by its id in title case: "Molly Stark"
    return known.name if known is not None else str(character).replace("_", " ").title()


_SPECIAL_ROLE = {
    SpecialRole.L_OURS: "L'Ours",
    SpecialRole.LE_BIEN: "Le Bien",
    SpecialRole.LE_DOC: "Le Doc",
    SpecialRole.LE_JUGE: "Le Juge",
    SpecialRole.LE_JOUEUR: "Le Joueur",
    SpecialRole.LE_MAUVAIS: "Le Mauvais",
    SpecialRole.LE_VILAIN: "Le Vilain",
    SpecialRole.MAIN_DROITE: "La Main Droite du Diable",
    SpecialRole.MAIN_GAUCHE: "La Main Gauche du Diable",
}


def special_role_words(special: SpecialRole | None) -> str:
    """A special role card (OS3) by its name, "Le Juge"; only where the rules made it public."""
    return "no special role" if special is None else _SPECIAL_ROLE.get(special, str(special))


def die_kind_words(kind: str) -> str:
    """A die by its kind: "a base die", "the Loudmouth die"."""
    return "a base die" if kind == "base" else f"the {kind.title()} die"


def referee_words(event: msgspec.Struct) -> str:
    """One plain sentence (without a full stop) saying what ``event`` records."""
    match event:
        case ev.GameStarted(seats=seats, position=position):
            start = f"the game started with {len(seats)} players"
            return start if position is None else f"{start} from a mid-game position"
        case ev.TurnStarted(player=p, turn=n):
            return f"{p} started turn {n}"
        case ev.DiceRolled(player=p, roll=1, faces=shown):
            return f"{p} rolled {faces(shown)}"
        case ev.DiceRolled(player=p, dice=rolled, faces=shown):
            return f"{p} rerolled dice {dice(rolled)}: {faces(shown)}"
        case ev.RerollChosen(player=p, dice=chosen):
            return f"{p} chose to reroll dice {dice(chosen)}"
        case ev.DiceFinalized(player=p, faces=shown, reason=RollingEnd.STOPPED):
            return f"{p} stopped rolling with {faces(shown)}"
        case ev.DiceFinalized(player=p, faces=shown, reason=reason):
            return f"{p} finished rolling with {faces(shown)} ({_FINAL.get(reason, str(reason))})"
        case ev.TargetChosen(player=p, target=target, die=None):
            return f"{p} chose {target} to gain 1 life"
        case ev.TargetChosen(player=p, target=target, die=die, as_face=as_face):
            used = "" if as_face is None else f" as a {as_face}"
            return f"{p} aimed die {die + 1}{used} at {target}"
        case ev.ArrowTaken(player=p, reason=reason):
            return f"{p} took an arrow{_ARROW_TAKEN.get(reason, f' ({reason})')}"
        case ev.ChiefArrowTaken(player=p, reason=reason):
            return f"{p} took the Chief's Arrow{_ARROW_TAKEN.get(reason, f' ({reason})')}"
        case os1.SaloonDieChosen(player=p, die=None):
            return f"{p} chose to roll no Saloon die"
        case os1.SaloonDieChosen(player=p, die=die):
            return f"{p} chose to roll {die_kind_words(die)}"
        case os1.BrokenArrowUsed(player=p, target=None):
            return f"{p}'s broken arrow had no effect (nobody held an arrow)"
        case os1.BrokenArrowUsed(player=p, target=target):
            return f"{p}'s broken arrow made {target} return an arrow"
        case os1.BulletHit(player=p):
            return f"{p} rolled a bullet"
        case os5.BecameGhost(player=p):
            return f"{p} became the Ghost"
        case os5.GhostTokenGiven(player=p, target=target, face=face, x2=x2):
            return f"the Ghost {p} gave the {face} token{' and the x2 token' if x2 else ''} to {target}"
        case os5.GhostDiceSet(player=p, dice=preset, face=face):
            which = "die" if len(preset) == 1 else "dice"
            return f"{p}'s Ghost token set {which} {' and '.join(str(i + 1) for i in preset)} to {face}"
        case os5.GhostTokensReturned(player=p):
            return f"{p}'s Ghost tokens went back to the Ghost"
        case ua2.RageDrawn(player=p, reshuffled=reshuffled):  # never which card: it is face down
            return f"{p} drew a Rage card face down{' (the discards reshuffled first)' if reshuffled else ''}"
        case ua2.RageKept(player=p):  # never which: both cards are face down
            return f"{p} kept one of the two Rage cards he drew and shuffled the other back"
        case ua2.RageRevealed(player=p, cards=cards):
            return f"{p} revealed the Rage card{'s' if len(cards) > 1 else ''} {', '.join(cards)}"
        case ua2.RageReturned(player=p, count=n):
            return f"{p}'s {n} face-down Rage card{'s' if n > 1 else ''} went to the discards unseen"
        case ua4.BoneyardRevealed(player=p, card=card, hands=hands):
            shown = "no hands" if hands == 0 else f"{hands} hand{'s' if hands > 1 else ''}"
            return f"{p} revealed the Boneyard card {card}, showing {shown}"
        case ua4.BoneyardShuffled(cards=cards):
            which = f"card{'s' if len(cards) > 1 else ''} {', '.join(cards)}"
            return f"the no-hands Boneyard {which} went back into the pile"
        case ua4.OutbreakTriggered(hands=hands, alive=alive):
            return (
                f"{hands} hands showing outnumbered the {alive} players alive: the zombie outbreak"
                " begins with the next turn"
            )
        case ua4.OutbreakBegan(zombies=zombies, life=life, master=master):
            ruled = f"; {master} became the Zombie Master" if master is not None else ""
            return f"the zombie outbreak began: {', '.join(zombies)} rose as zombies with {life} life{ruled}"
        case ua1.WoundDrawn(player=p, card=token, kept=True):
            return f"{p} drew the {token} wound token"
        case ua1.WoundDrawn(player=p, card=token):
            return f"{p} drew the {token} wound token and, holding one already, put it back"
        case ua1.WoundOwed(player=p):
            return f"{p} must draw a wound token"
        case ua1.WoundsReturned(player=p, tokens=tokens):
            return f"{p}'s wound tokens went back into the pile ({len(tokens)})"
        case ua1.WoundDynamiteSet(player=p):
            return f"{p}'s dynamite wound token counts as one more dynamite"
        case ua1.WhiskeyDrunk(player=p):
            return f"{p} drank a whiskey"
        case ua1.WhiskeyRage(player=p):
            return f"{p} held no wound token and must draw a Rage card"
        case ua1.WoundDiscarded(player=p, token=token):
            return f"{p} put the {token} wound token back"
        case ua1.WoundsApplied(player=p, dice=cancelled):
            return f"{p}'s wound tokens cancelled dice {dice(cancelled) if cancelled else 'none'}"
        case ua1.DuelChallenged(player=p, target=target):
            return f"{p} challenged {target} to a duel"
        case ua1.DuelThrowHeld(player=p):
            return f"{p}'s throw would lose the duel; he may throw again"
        case ua1.DuelThrowRerolled(player=p):
            return f"{p} threw his Duel die again"
        case ua1.DuelThrowKept(player=p):
            return f"{p} let his throw stand"
        case ua1.DuelThrown(player=p, face=face):
            return f"{p} threw {face} in the duel"
        case ua1.DuelLost(player=p, winner=winner):
            return f"{p} lost the duel to {winner}"
        case ua1.DuelLossSettled(player=p):
            return f"{p}'s loss for the duel applied"
        case ua1.DuelsUnused(player=p):
            return f"{p}'s other duels found nobody to challenge"
        case os3.RolePowerUsed(player=p, role=role):
            return f"{p} revealed {special_role_words(role)} and used its power"
        case os3.RoleUseCancelled(player=p, cancelled=other):
            return f"{p} cancelled {other}'s use of a special role"
        case os3.WindowPassed():
            return "nobody used a special role at this moment"
        case os3.SheriffChanged(player=p, previous=previous):
            return f"{p} became the Sheriff and {previous} a Deputy"
        case os3.ArrowsSwapped(player=p, first=a, second=b):
            return f"{p} swapped the arrows of {a} and {b}"
        case os3.DieFaceSet(player=p, die=die, face=face):
            return f"{p} set die {die + 1} to {face}"
        case os3.RerollForced(player=p, target=target):
            return f"{p} made {target} reroll every die"
        case os3.GainHeld(player=p, amount=n):
            return f"{p}'s gain of {n} life waits for the special roles"
        case os3.GainCancelled(player=p, target=target):
            return f"{p} cancelled {target}'s gain of life"
        case os3.GainsReleased():
            return "the gains of life waiting applied"
        case os3.EliminationsHeld(players=players):
            return f"{', '.join(players)} at 0 life, waiting for the special roles"
        case os3.EliminationPrevented(player=p, target=target, life=life):
            return f"{p} saved {target}, who stays in with {life} life"
        case os3.EliminationsReleased():
            return "the eliminations waiting applied"
        case os3.ExtraTurnGranted(player=p):
            return f"{p} will play an extra turn"
        case os3.ExtraTurnTaken(player=p):
            return f"{p} plays an extra turn"
        case os2.ArrowTokenChosen(player=p, chief=True):
            return f"{p} chose to take the Chief's Arrow"
        case os2.ArrowTokenChosen(player=p, chief=False):
            return f"{p} chose to take a regular arrow"
        case os4.ArrowsHeldBack(player=p, count=n):
            return f"{p}'s {_arrows(n)} rolled wait for his last roll"
        case os4.FinalArrowsDue(player=p, count=n):
            return f"{p}'s final dice took {_arrows(n)} after his last roll"
        case os4.ChiefArrowSeized(player=p, holder=holder):
            return f"{p} took the Chief's Arrow from {holder}"
        case os4.ArrowGiven(player=p, target=target, chief=True):
            return f"{p} gave the Chief's Arrow to {target}"
        case os4.ArrowGiven(player=p, target=target):
            return f"{p} gave an arrow to {target}"
        case os4.PowerDeclined(player=p, decision=os4.ELENA_GIVE):
            return f"{p} kept this roll's arrows"
        case os4.PowerDeclined(player=p, decision=decision):
            return f"{p} declined to {_DECLINED.get(decision, decision.replace('_', ' '))}"
        case os4.ShotsRewarded(player=p):
            return f"{p} used three or more shots"
        case ua3.ShotHealed(player=p, target=target):
            return f"{p} healed {target} for a shoot1 he used"
        case ua3.ShotHealDeclined(player=p):
            return f"{p} healed nobody for a shoot1 he used"
        case ua3.SecondHealGiven(player=p, target=target, die=die):
            return f"{p} gave the second heal of his beer (die {die + 1}) to {target}"
        case ua3.SecondHealDeclined(player=p, die=die):
            return f"{p} gave the second heal of his beer (die {die + 1}) to nobody"
        case ua3.DynamiteConverted(player=p, die=die):
            return f"{p} turned die {die + 1} from a dynamite to a beer"
        case ua3.ConvertDeclined(player=p):
            return f"{p} kept this roll's dynamite"
        case ua3.DieBought(player=p, die=die, face=face):
            return f"{p} paid 1 life to set die {die + 1} to {face}"
        case ua3.DieNotBought(player=p):
            return f"{p} left his dice as rolled"
        case ua3.RageMoved(player=p, giver=giver, taker=taker):
            return f"{p} moved one of {giver}'s face-down Rage cards to {taker}"
        case ua3.RageMoveDeclined(player=p):
            return f"{p} moved no Rage card"
        case os4.LossesHeld(kind=kind):
            return f"the losses of the {kind.replace('_', ' ')} waited for Molly Stark"
        case os4.LossTakenOver(player=p, target=target):
            return f"{p} chose to lose {target}'s life in his place"
        case os4.LossLeft(player=p, target=target):
            return f"{p} left {target} his loss of life"
        case ev.ArrowsReturned(player=p, count=n, reason=reason):
            return f"{p} returned {_arrows(n)} {_ARROWS_RETURNED.get(reason, f'({reason})')}"
        case ev.IndiansAttacked():
            return "the Indians attacked"
        case ev.AllArrowsReturned():
            return "all arrows went back to the pile"
        case ev.DynamiteExploded(player=p):
            return f"the dynamite exploded on {p}"
        case ev.ShotDoubled(player=p, shot_die=shot, beer_die=beer):
            return f"{p} spent the beer of die {beer + 1} to double the shot of die {shot + 1}"
        case ev.AbilityDeclined(player=p, decision=decision):
            return f"{p} declined to {_DECLINED.get(decision, decision.replace('_', ' '))}"
        case ev.ArrowsInsteadChosen(player=p, count=0):
            return f"{p} chose to lose life rather than take arrows"
        case ev.ArrowsInsteadChosen(player=p, count=n):
            return f"{p} chose to take {_arrows(n)} instead of losing life"
        case ev.ChiefArrowsInsteadChosen(player=p, count=n):
            return f"{p} chose to take {_arrows(n)}, the Chief's Arrow first, instead of losing life"
        case ev.ShotsFired(player=p):
            return f"{p} fired the shots"
        case ev.GatlingFired(player=p):
            return f"{p} fired the gatling"
        case ev.LifeLost(player=p, amount=n, source=source, cause=cause):
            by = "" if source is None else f" from {source}"
            return f"{p} lost {n} life to {cause_words(cause)}{by}"
        case ev.LifeGained(player=p, amount=0, cause=GainCause.BEER):
            return f"{p} drank a beer at full life (no life gained)"
        case ev.LifeGained(player=p, amount=n, cause=cause, source=source):
            by = "" if source is None or source == p else f" given by {source}"
            return f"{p} gained {n} life {_GAIN.get(cause, f'({cause})')}{by}"
        case ev.ArrowsRemoved(player=p, from_players=players):
            return f"{p} made {', '.join(players)} return an arrow each"
        case ev.PlayerEliminated(player=p, source=None, cause=cause):
            return f"{p} was eliminated by {cause_words(cause)}"
        case ev.PlayerEliminated(player=p, source=source, cause=cause):
            return f"{p} was eliminated by {source} ({cause})"
        case ev.TurnEnded(player=p):
            return f"{p} ended the turn"
        case ev.GameEnded(winning_side=side):
            return f"the game ended with {win_words(side)}"
    return _describe_lifecycle(event)


def _describe_lifecycle(event: msgspec.Struct) -> str:
    match event:
        case GameCreated(mode=mode, player_count=n):
            return f"the game was created ({mode}, {n} players)"
        case PlayerJoined(name=name, member_id=member):
            return f"{name} ({member}) joined"
        case SeatsDealt(members=members):
            return f"the {len(members)} seats were dealt"
        case SeedRevealed():
            return "the dice seed was revealed"
        case DecisionTimedOut(player=p, applied=applied):
            return f"{p} ran out of time; '{applied}' was played for them"
        case GameAbandoned(reason=reason):
            return f"the game was abandoned ({reason})"
        case EntryTakenBack(from_version=first, command=command):
            return f"entry {first} was taken back ({command})"
        case SeatReplaced(player=p, member_id=None, turn=turn):
            return f"a bot took over seat {p} in turn {turn}"
        case SeatReplaced(player=p, name=name, turn=turn):
            return f"{name} took over seat {p} in turn {turn}"
        case Unreadable(type=type_name):
            return f"an unreadable {type_name}"
    # the card game's events have words of their own; an event type added later still gets words
    return card_words(event) or type(event).__name__


def _arrows(n: int) -> str:
    return f"{n} arrow{'' if n == 1 else 's'}"
