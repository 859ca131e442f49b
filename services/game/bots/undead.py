"""The heuristic bot's answers to Undead or Alive's character decisions (UA3) that a bot hint
does not play well: Belle Star always turns a dynamite into a beer (a beer never hurts her and a
dynamite brings her closer to the explosion); Chuck Wengam, with two dynamite showing and 4 life
or more, pays 1 life to turn one of them into a beer (else a gatling or a shot) so that a third
cannot explode; Pat Brennan takes a face-down Rage card from the player he most wants hurt (a
Rage card adds symbols to its holder's results); Pixie Pete keeps, of his two Rage cards, the one
whose symbols serve him best (shots and gatling when someone is wanted hurt, a beer when he is
hurt himself, never a dynamite or an arrow if he can help it); Sean Mallory always throws his
losing Duel die again (a second throw can only win him the duel); Greg Digger gives each beer's
second heal where a beer of his would go (himself when low, else the friend to heal) if that
player can gain from it, else to himself if he is hurt, else to nobody (a heal on a player at his
maximum or on a zombie is wasted). Sam the Healer's heals go by their hint (HELP)."""

from __future__ import annotations

import random

from services.game.bots.old_saloon import Answer
from services.game.bots.view import PlayerView
from services.game.bots.wants import heal_target, wants
from services.game.rules.dice import Awaiting, GameCommand
from services.game.rules.dice.commands import ChooseTarget, Decline, KeepCard, MoveRage, RerollThrow, SetDie
from services.game.rules.dice.vocabulary import Face


def _answer_belle(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return SetDie(player=q.player, die=q.dice[0], face=Face.BEER)


_CHUCK_FACES = (Face.BEER, Face.GATLING, Face.SHOOT1, Face.SHOOT2, Face.WHISKEY)


def _answer_chuck(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    t = view.state.turn
    if t is not None and view.me.life >= 4 and t.count(Face.DYNAMITE) == 2:
        for die in q.dice:
            if t.dice[die] is not Face.DYNAMITE:
                continue
            for face in _CHUCK_FACES:
                if face in t.kinds[die].faces:
                    return SetDie(player=q.player, die=die, face=face)
    return Decline(player=q.player)


def _answer_pat(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    rage = view.state.rage
    if rage is not None:
        want = wants(view)
        holders = [p for p in view.others() if p.alive and rage.hands.get(p.id) and want.get(p.id, 0.0) > 0]
        if holders:
            giver = max(holders, key=lambda p: want[p.id])
            return MoveRage(player=q.player, giver=giver.id, taker=q.player, slot=0)
    return Decline(player=q.player)


def rage_card_worth(symbols: tuple[Face, ...], hurt: bool, wounded: bool) -> float:
    """What a Rage card's symbols are worth to the one who will reveal it: a shot or a gatling
    when he wants someone hurt, a beer when he is below his maximum; a dynamite brings his own
    explosion nearer and an arrow the Indians."""
    worth = {
        Face.SHOOT1: 2.0 if hurt else 0.2,
        Face.SHOOT2: 2.0 if hurt else 0.2,
        Face.GATLING: 1.2 if hurt else 0.1,
        Face.BEER: 1.5 if wounded else 0.3,
        Face.DYNAMITE: -2.0,
        Face.ARROW: -1.0,
    }
    return sum(worth.get(symbol, 0.0) for symbol in symbols)


def _answer_pixie(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    rage = view.state.rage
    if rage is None or len(rage.pair) < 2:
        return KeepCard(player=q.player, slot=0)
    hurt = any(v > 0 for v in wants(view).values())
    wounded = view.me.life < view.me.max_life
    worth = [rage_card_worth(tuple(rage.symbols[card]), hurt, wounded) for card in rage.pair[:2]]
    return KeepCard(player=q.player, slot=1 if worth[1] > worth[0] else 0)


def _answer_greg(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    target = heal_target(view)
    if target.zombie or target.life >= target.max_life:
        me = view.me
        if me.life >= me.max_life:
            return Decline(player=q.player)
        target = me
    return ChooseTarget(player=q.player, target=target.id)


def _answer_sean(view: PlayerView, q: Awaiting, rng: random.Random) -> GameCommand:
    return RerollThrow(player=q.player)  # he is asked only after a throw that loses the duel


UNDEAD_ANSWERS: dict[str, Answer] = {
    "belle_convert": _answer_belle,
    "chuck_set": _answer_chuck,
    "greg_heal": _answer_greg,
    "pat_move": _answer_pat,
    "pixie_keep": _answer_pixie,
    "sean_reroll": _answer_sean,
}
"""UA3's decisions by name."""

__all__ = ["UNDEAD_ANSWERS"]
