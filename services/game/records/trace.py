"""One readable line per event, for ``rules run --trace`` and for scenario expectations.

The lines are stable (scenarios match them exactly), short, and say who did what to whom:
``p3 lost 1 life (shoot1 from p1)``, ``p1 took an arrow (roll)``, ``Indians attack``.
"""

from __future__ import annotations

from services.game.rules.dice import Event
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


def trace_line(event: Event) -> str:
    match event:
        case ev.GameStarted(seats=seats, arrow_pile=pile):
            table = ", ".join(f"{s.player} {s.role} {s.character}" for s in seats)
            return f"game started: {table}; arrow pile {pile}"
        case ev.TurnStarted(player=p, turn=n):
            return f"turn {n}: {p}"
        case ev.DiceRolled(player=p, roll=roll, dice=dice, faces=faces):
            which = "" if len(dice) == 5 else f" dice {' '.join(map(str, dice))}"
            return f"{p} roll {roll}{which}: {' '.join(faces)}"
        case ev.RerollChosen(player=p, dice=dice):
            return f"{p} rerolls {' '.join(map(str, dice))}"
        case ev.DiceFinalized(player=p, faces=faces, reason=reason):
            return f"{p} final dice: {' '.join(faces)} ({reason})"
        case ev.ArrowTaken(player=p, reason=reason):
            return f"{p} took an arrow ({reason})"
        case ev.ChiefArrowTaken(player=p, reason=reason):
            return f"{p} took the Chief's Arrow ({reason})"
        case os1.SaloonDieChosen(player=p, die=die):
            return f"{p} rolls {'no Saloon die' if die is None else f'the {die} die'}"
        case os1.BrokenArrowUsed(player=p, target=None):
            return f"{p}'s broken arrow: nobody holds an arrow"
        case os1.BrokenArrowUsed(player=p, target=target):
            return f"{p}'s broken arrow: {target} returns an arrow"
        case os1.BulletHit(player=p):
            return f"{p} is hit by a bullet"
        case os5.BecameGhost(player=p):
            return f"{p} becomes the Ghost"
        case os5.GhostTokenGiven(player=p, target=target, face=face, x2=x2):
            return f"{p} gives the {face} Ghost token{' and x2' if x2 else ''} to {target}"
        case os5.GhostDiceSet(player=p, dice=dice, face=face):
            return f"{p}'s Ghost token sets die {' '.join(map(str, dice))} to {face}"
        case os5.GhostTokensReturned(player=p):
            return f"{p}'s Ghost tokens go back"
        case ua2.RageDrawn(player=p, card=card, reshuffled=reshuffled):
            return f"{p} draws Rage card {card}{' (discards reshuffled)' if reshuffled else ''}"
        case ua2.RageKept(player=p, card=card, returned=returned):
            return f"{p} keeps Rage card {card}, {returned} back to the pile"
        case ua2.RageRevealed(player=p, cards=cards):
            return f"{p} reveals Rage {' '.join(cards)}"
        case ua2.RageReturned(player=p, count=n):
            return f"{p}'s {n} Rage card(s) go to the discards"
        case ua4.BoneyardRevealed(player=p, card=card, hands=hands):
            return f"{p} reveals Boneyard card {card} ({hands} hand{'' if hands == 1 else 's'})"
        case ua4.BoneyardShuffled(cards=cards):
            return f"Boneyard {' '.join(cards)} shuffled back"
        case ua4.OutbreakTriggered(hands=hands, alive=alive):
            return f"outbreak coming: {hands} hands showing, {alive} alive"
        case ua4.OutbreakBegan(zombies=zombies, life=life, master=master):
            ruled = f"; {master} is the Zombie Master" if master is not None else ""
            return f"outbreak: {' '.join(zombies)} rise as zombies with {life} life{ruled}"
        case ua1.WoundDrawn(player=p, card=token, kept=True):
            return f"{p} draws the {token} wound token"
        case ua1.WoundDrawn(player=p, card=token):
            return f"{p} draws the {token} wound token, holds one already: back to the pile"
        case ua1.WoundOwed(player=p):
            return f"{p} owes a wound token"
        case ua1.WoundsReturned(player=p, tokens=tokens):
            return f"{p}'s wound tokens go back: {' '.join(tokens) or 'none'}"
        case ua1.WoundDynamiteSet(player=p):
            return f"{p}'s dynamite wound token counts as a dynamite"
        case ua1.WhiskeyDrunk(player=p):
            return f"{p} drinks a whiskey"
        case ua1.WhiskeyRage(player=p):
            return f"{p} holds no wound token: draws a Rage card"
        case ua1.WoundDiscarded(player=p, token=token):
            return f"{p} puts the {token} wound token back"
        case ua1.WoundsApplied(player=p, dice=dice):
            return f"{p}'s wound tokens cancel dice {' '.join(map(str, dice)) or 'none'}"
        case ua1.DuelChallenged(player=p, target=target):
            return f"{p} challenges {target} to a duel"
        case ua1.DuelThrowHeld(player=p):
            return f"{p} may throw again"
        case ua1.DuelThrowRerolled(player=p):
            return f"{p} throws again"
        case ua1.DuelThrowKept(player=p):
            return f"{p} lets the throw stand"
        case ua1.DuelThrown(player=p, face=face):
            return f"{p} throws {face}"
        case ua1.DuelLost(player=p, winner=winner):
            return f"{p} loses the duel to {winner}"
        case ua1.DuelLossSettled(player=p):
            return f"{p}'s duel loss applies"
        case ua1.DuelsUnused(player=p):
            return f"{p}'s other duels find nobody to challenge"
        case os3.RolePowerUsed(player=p, role=role):
            return f"{p} reveals {role} and uses it"
        case os3.RoleUseCancelled(player=p, cancelled=other):
            return f"{p} cancels {other}'s power"
        case os3.WindowPassed(window=window):
            return f"{window.removeprefix('role_window_')} window passes"
        case os3.SheriffChanged(player=p, previous=previous):
            return f"{p} becomes the Sheriff, {previous} a Deputy"
        case os3.ArrowsSwapped(first=a, second=b):
            return f"arrows swapped between {a} and {b}"
        case os3.DieFaceSet(player=p, die=die, face=face):
            return f"{p} sets die {die} to {face}"
        case os3.RerollForced(player=p, target=target):
            return f"{p} forces {target} to reroll"
        case os3.GainHeld(player=p, amount=n):
            return f"{p}'s gain of {n} held"
        case os3.GainCancelled(player=p, target=target):
            return f"{p} cancels {target}'s gain"
        case os3.GainsReleased():
            return "held gains released"
        case os3.EliminationsHeld(players=players):
            return f"eliminations held: {' '.join(players)}"
        case os3.EliminationPrevented(player=p, target=target, life=life):
            return f"{p} saves {target} at {life} life"
        case os3.EliminationsReleased():
            return "held eliminations released"
        case os3.ExtraTurnGranted(player=p):
            return f"{p} will take an extra turn"
        case os3.ExtraTurnTaken(player=p):
            return f"{p} takes an extra turn"
        case os2.ArrowTokenChosen(player=p, chief=chief):
            return f"{p} chooses {'the Chief' if chief else 'a regular arrow'}"
        case os4.ArrowsHeldBack(player=p, count=n):
            return f"{p} holds back {n} arrow{'s' if n != 1 else ''} until his last roll"
        case os4.FinalArrowsDue(player=p, count=n):
            return f"{p}'s final dice take {n} arrow{'s' if n != 1 else ''}"
        case os4.ChiefArrowSeized(player=p, holder=holder):
            return f"{p} takes the Chief's Arrow from {holder}"
        case os4.ArrowGiven(player=p, target=target, chief=chief):
            return f"{p} gives {'the Chief' if chief else 'an arrow'} to {target}"
        case os4.PowerDeclined(player=p, decision=decision):
            return f"{p} declines {decision}"
        case os4.ShotsRewarded(player=p):
            return f"{p}'s three shots earn 2 life"
        case ua3.ShotHealed(player=p, target=target):
            return f"{p}'s shoot1 heals {target}"
        case ua3.ShotHealDeclined(player=p):
            return f"{p}'s shoot1 heals nobody"
        case ua3.SecondHealGiven(player=p, target=target, die=die):
            return f"{p}'s beer {die} heals {target} a second time"
        case ua3.SecondHealDeclined(player=p, die=die):
            return f"{p}'s beer {die} heals nobody a second time"
        case ua3.DynamiteConverted(player=p, die=die):
            return f"{p} turns die {die} from dynamite to beer"
        case ua3.ConvertDeclined(player=p):
            return f"{p} keeps her dynamite"
        case ua3.DieBought(player=p, die=die, face=face):
            return f"{p} pays 1 life to set die {die} to {face}"
        case ua3.DieNotBought(player=p):
            return f"{p} leaves his dice as rolled"
        case ua3.RageMoved(player=p, giver=giver, taker=taker, slot=slot):
            return f"{p} moves {giver}'s Rage card {slot} to {taker}"
        case ua3.RageMoveDeclined(player=p):
            return f"{p} moves no Rage card"
        case os4.LossesHeld(kind=kind):
            return f"{kind} losses held for Molly Stark"
        case os4.LossTakenOver(player=p, target=target):
            return f"{p} takes {target}'s loss"
        case os4.LossLeft(player=p, target=target):
            return f"{p} leaves {target}'s loss"
        case ev.ArrowsReturned(player=p, count=n, reason=reason):
            return f"{p} returned {n} arrow{'s' if n != 1 else ''} ({reason})"
        case ev.IndiansAttacked():
            return "Indians attack"
        case ev.AllArrowsReturned():
            return "all arrows back to the pile"
        case ev.DynamiteExploded(player=p):
            return f"dynamite explodes on {p}"
        case ev.ShotDoubled(player=p, shot_die=shot, beer_die=beer):
            return f"{p} doubles die {shot} with beer die {beer}"
        case ev.AbilityDeclined(player=p, decision=decision):
            return f"{p} declines {decision}"
        case ev.ArrowsInsteadChosen(player=p, count=n, step=step):
            return f"{p} takes {n} arrow{'s' if n != 1 else ''} instead of life ({step})"
        case ev.ChiefArrowsInsteadChosen(player=p, count=n, step=step):
            return f"{p} takes {n} arrow{'s' if n != 1 else ''}, the Chief's first, instead of life ({step})"
        case ev.ShotsFired(player=p):
            return f"{p} fires the shots"
        case ev.GatlingFired(player=p):
            return f"{p} fires the gatling"
        case ev.TargetChosen(player=p, target=target, die=None):
            return f"{p} chooses {target} to gain 1 life"
        case ev.TargetChosen(player=p, target=target, die=die, as_face=as_face):
            used = "" if as_face is None else f" as {as_face}"
            return f"{p} aims die {die}{used} at {target}"
        case ev.LifeLost(player=p, amount=n, source=source, cause=cause):
            by = f"{cause} from {source}" if source is not None else str(cause)
            return f"{p} lost {n} life ({by})"
        case ev.LifeGained(player=p, amount=n, cause=cause, source=source):
            by = f"{cause} from {source}" if source is not None else str(cause)
            return f"{p} gained {n} life ({by})"
        case ev.ArrowsRemoved(player=p, from_players=players):
            return f"{p} removes an arrow from {' '.join(players)}"
        case ev.PlayerEliminated(player=p, role=role, source=source, cause=cause, turn=n):
            by = f"by {source} ({cause})" if source is not None else f"by {cause}"
            return f"{p} ({role}) eliminated {by} on turn {n}"
        case ev.TurnEnded(player=p):
            return f"{p} ends the turn"
        case ev.GameEnded(winning_side=side, winners=winners):
            if side is None:
                return "game over: nobody wins"
            verb = "win" if side in ("outlaws", "zombies", "survivors") else "wins"
            return f"game over: {side} {verb} ({' '.join(winners)})"
    return type(event).__name__  # an event type added later still gets a line
