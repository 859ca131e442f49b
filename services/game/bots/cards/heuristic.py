"""``HeuristicCardBot``: plays its role from what its seat may know.

The Sheriff and his Deputies shoot the players public acts mark as Outlaws (who shot the
Sheriff), the Outlaws shoot the Sheriff whenever they reach him, the Renegade keeps the Sheriff
alive while Outlaws live (thinning the Law while it is ahead, siding with it when the Sheriff is
low or outnumbered), then removes the Deputies and the Sheriff last (``sides``). In phase 2
it draws first (Stagecoach, Wells Fargo), puts its blue cards in play, takes a weapon that
reaches farther, strips or jails its enemies (Panic!, Cat Balou, Jail), attacks (Gatling,
Indians!, Duel, BANG!), then heals. Out of turn it answers every question: Barrel and
Jourdonnais before a Missed!, a BANG! against Indians! and in a Duel, a Beer or Sid Ketchum's
heal when dying, the best card of a General Store or of Kit Carlson's look, the winning card of
Lucky Duke's draw!. Every answer is checked with the engine (``SeatView.legal``); should a
choice be refused, the bot falls back to the question's plain default. It draws nothing from
its ``rng``: given the same view it always answers the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from services.game.bots.cards.base import split_game
from services.game.bots.cards.sides import NEVER, enemy_scores, protects_sheriff, sheriff_fragile
from services.game.bots.cards.view import Knowledge, SeatView, Seen
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.deck import WEAPON_RANGE, explodes, is_heart, name_of
from services.game.rules.cards.game import Game
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    CardName,
    CharacterId,
    CheckReason,
    Decision,
    PlayerId,
)

N = CardName

_WORTH: dict[CardName, float] = {
    N.BANG: 6,
    N.MISSED: 7,
    N.BEER: 8,
    N.SALOON: 5,
    N.STAGECOACH: 7,
    N.WELLS_FARGO: 8,
    N.GENERAL_STORE: 4,
    N.PANIC: 6,
    N.CAT_BALOU: 6,
    N.GATLING: 7,
    N.INDIANS: 6,
    N.DUEL: 5,
    N.BARREL: 7,
    N.SCOPE: 4,
    N.MUSTANG: 6,
    N.JAIL: 4,
    N.DYNAMITE: 1,
    N.VOLCANIC: 3,
    N.SCHOFIELD: 3,
    N.REMINGTON: 4,
    N.REV_CARABINE: 4.5,
    N.WINCHESTER: 5,
}
"""How much a card in hand is worth keeping (the order of discards, picks and Kit's return)."""

_STRIP_ORDER: tuple[CardName, ...] = (
    N.BARREL,
    N.MUSTANG,
    N.VOLCANIC,
    N.WINCHESTER,
    N.REV_CARABINE,
    N.REMINGTON,
    N.SCOPE,
    N.SCHOFIELD,
)
"""An enemy's cards in play worth taking or discarding, best first."""

_SELF_BLUE = (N.BARREL, N.MUSTANG, N.SCOPE)
_AIMED: frozenset[CardName] = frozenset(
    {N.BANG, N.PANIC, N.CAT_BALOU, N.JAIL, N.GATLING, N.INDIANS, N.DUEL, *WEAPON_RANGE}
)
"""Cards whose use depends on who the enemies are (and Calamity Janet's Missed!, a BANG! too)."""


class HeuristicCardBot:
    """One per game (its ``Knowledge`` is that game's public history); it may play every seat,
    since what it keeps is public."""

    __slots__ = ("knowledge",)

    def __init__(self) -> None:
        self.knowledge = Knowledge()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> cmd.Command:
        if question.player == TABLE:
            raise ValueError(
                f"bots do not answer {question.decision.value}: the table's inputs come from its source"
            )
        state, events = split_game(game)
        self.knowledge.update(events)
        view = SeatView(state, question, self.knowledge)
        choice = answer(view, rng)
        return choice if view.legal(choice) else fallback(view)

    def __repr__(self) -> str:
        return "HeuristicCardBot()"


def answer(view: SeatView, rng: random.Random) -> cmd.Command:
    d = view.question.decision
    if d is Decision.PLAY:
        return play(view)
    if d is Decision.DISCARD:
        return discard(view)
    if d is Decision.RESPOND_SHOT:
        return dodge(view)
    if d in (Decision.RESPOND_INDIANS, Decision.RESPOND_DUEL):
        return fire_back(view)
    if d is Decision.DYING:
        return survive(view)
    if d is Decision.DRAW_SOURCE:
        return draw_source(view)
    if d is Decision.KIT_RETURN:
        return cmd.KitReturn(player=view.me.id, card=min(view.kit, key=lambda c: worth(view, c)))
    if d is Decision.DRAW_RESULT:
        return draw_result(view)
    if d is Decision.STORE_PICK:
        return cmd.PickStoreCard(player=view.me.id, card=max(view.store, key=lambda c: worth(view, c)))
    if d is Decision.DISCARD_ORDER:
        # the least useful card last, on top of the pile, where Pedro Ramirez could take it
        cards = sorted([*view.me.in_play, *view.me.hand], key=lambda c: (-worth(view, c), c))
        return cmd.OrderDiscards(player=view.me.id, cards=tuple(cards))
    raise AssertionError(f"no answer for {d}")


def fallback(view: SeatView) -> cmd.Command:
    """The plain answer that is always legal: pass, end play, the deck, the first option."""
    me, q = view.me, view.question
    if q.decision in (Decision.RESPOND_SHOT, Decision.RESPOND_INDIANS, Decision.RESPOND_DUEL, Decision.DYING):
        return cmd.Pass(player=me.id)
    if q.decision is Decision.PLAY:
        return cmd.EndPlay(player=me.id)
    if q.decision is Decision.DRAW_SOURCE:
        return cmd.ChooseDrawSource(player=me.id)
    if q.decision is Decision.DISCARD:
        return cmd.Discard(player=me.id, cards=tuple(me.hand[-q.count :]))
    return view.options()[0]


# --- what a card is worth ----------------------------------------------------------------------


def worth(view: SeatView, card: CardId) -> float:
    me = view.me
    name = name_of(card)
    value = _WORTH[name]
    if name in _SELF_BLUE and me.has_in_play(name) is not None:
        return 0.5
    if name in WEAPON_RANGE:
        held = next((c for c in me.in_play if name_of(c) in WEAPON_RANGE), None)
        if held is not None and WEAPON_RANGE[name_of(held)] >= WEAPON_RANGE[name]:
            return 1.0
    if name is N.BEER and view.living_count() <= 2:
        return 1.0
    if name is N.MISSED and me.character is CharacterId.CALAMITY_JANET:
        return _WORTH[N.MISSED]
    return value


def _cheapest(view: SeatView, cards: list[CardId], k: int) -> tuple[CardId, ...]:
    return tuple(sorted(cards, key=lambda c: (worth(view, c), c))[:k])


def _shots(view: SeatView) -> list[CardId]:
    """Cards that count as BANG! for Indians!, a Duel or a shot of one's own."""
    names = (N.BANG, N.MISSED) if view.me.character is CharacterId.CALAMITY_JANET else (N.BANG,)
    return sorted((c for c in view.me.hand if name_of(c) in names), key=lambda c: name_of(c) is not N.BANG)


def _misses(view: SeatView) -> list[CardId]:
    """Cards that cancel a shot: Missed!, and Calamity Janet's BANG! after them."""
    names = (N.MISSED, N.BANG) if view.me.character is CharacterId.CALAMITY_JANET else (N.MISSED,)
    return sorted((c for c in view.me.hand if name_of(c) in names), key=lambda c: name_of(c) is not N.MISSED)


# --- out of turn -------------------------------------------------------------------------------


def dodge(view: SeatView) -> cmd.Command:
    me = view.me
    if view.unused_barrels:
        return cmd.UseBarrel(player=me.id, card=view.unused_barrels[0])
    if view.jourdonnais_ready:
        return cmd.UseBarrel(player=me.id)
    misses = _misses(view)
    # against Slab the Killer one Missed! alone is spent for nothing
    if misses and len(misses) >= view.question.count:
        return cmd.Respond(player=me.id, card=misses[0])
    return cmd.Pass(player=me.id)


def fire_back(view: SeatView) -> cmd.Command:
    shots = _shots(view)
    if shots:
        return cmd.Respond(player=view.me.id, card=shots[0])
    return cmd.Pass(player=view.me.id)


def survive(view: SeatView) -> cmd.Command:
    me = view.me
    beer = next((c for c in me.hand if name_of(c) is N.BEER), None)
    if beer is not None and view.living_count() > 2:
        return cmd.Respond(player=me.id, card=beer)
    heal = _sid_heal(view)
    return heal if heal is not None else cmd.Pass(player=me.id)


def _sid_heal(view: SeatView) -> cmd.UseSidKetchum | None:
    me = view.me
    if me.character is not CharacterId.SID_KETCHUM or len(me.hand) < 2 or me.life >= me.max_life:
        return None
    a, b = _cheapest(view, list(me.hand), 2)
    return cmd.UseSidKetchum(player=me.id, cards=(a, b))


def draw_source(view: SeatView) -> cmd.Command:
    me = view.me
    if me.character is CharacterId.PEDRO_RAMIREZ:
        top = view.discard_top
        if top is not None and worth(view, top) >= 6:
            return cmd.ChooseDrawSource(player=me.id, from_discard=True)
        return cmd.ChooseDrawSource(player=me.id)
    scores = enemy_scores(view)
    victims = [p for p in view.others() if p.hand_size > 0 and scores[p.id] > 0]
    if victims:
        victim = max(victims, key=lambda p: (scores[p.id], p.hand_size, -p.seat))
        return cmd.ChooseDrawSource(player=me.id, from_player=victim.id)
    return cmd.ChooseDrawSource(player=me.id)


def draw_result(view: SeatView) -> cmd.Command:
    flips = view.question.cards
    if view.check_reason is CheckReason.DYNAMITE:
        good = [c for c in flips if not explodes(c)]
    else:
        good = [c for c in flips if is_heart(c)]
    return cmd.ChooseDrawResult(player=view.me.id, card=(good or list(flips))[0])


# --- phase 3 -----------------------------------------------------------------------------------


def discard(view: SeatView) -> cmd.Command:
    heal = _sid_heal(view)
    if heal is not None and view.question.count >= 2:
        return heal
    return cmd.Discard(player=view.me.id, cards=_cheapest(view, list(view.me.hand), view.question.count))


# --- phase 2 -----------------------------------------------------------------------------------


def play(view: SeatView) -> cmd.Command:
    for option in _plays(view):
        if view.legal(option):
            return option
    return cmd.EndPlay(player=view.me.id)


def _plays(view: SeatView) -> Iterator[cmd.Command]:
    """Phase 2's wishes, best first; the first legal one is played."""
    me = view.me
    pid = me.id
    hand = list(me.hand)
    names = {c: name_of(c) for c in hand}

    def cards(*wanted: CardName) -> list[CardId]:
        return [c for c in hand if names[c] in wanted]

    for c in cards(N.WELLS_FARGO, N.STAGECOACH):
        yield cmd.PlayCard(player=pid, card=c)
    for c in cards(*_SELF_BLUE):
        if me.has_in_play(names[c]) is None:
            yield cmd.PlayCard(player=pid, card=c)
    calamity = me.character is CharacterId.CALAMITY_JANET
    if any(names[c] in _AIMED or (calamity and names[c] is N.MISSED) for c in hand):
        yield from _attacks(view, cards)
    if me.life < me.max_life and view.living_count() > 2:
        beers = cards(N.BEER)
        if beers and (me.life <= 1 or len(beers) > 1 or len(hand) > me.life):
            yield cmd.PlayCard(player=pid, card=beers[0])
    if me.life < me.max_life:
        for c in cards(N.SALOON):
            yield cmd.PlayCard(player=pid, card=c)
    heal = _sid_heal(view)
    if heal is not None and len(hand) > me.life + 1:
        yield heal
    for c in cards(N.GENERAL_STORE):
        yield cmd.PlayCard(player=pid, card=c)
    if me.life >= 4:
        for c in cards(N.DYNAMITE):
            yield cmd.PlayCard(player=pid, card=c)


def _attacks(view: SeatView, cards: Callable[..., list[CardId]]) -> Iterator[cmd.Command]:
    """Phase 2's aimed wishes: a weapon, stripping or jailing an enemy, area attacks, a Duel, a
    BANG!; best first."""
    pid = view.me.id
    hand = list(view.me.hand)
    scores = enemy_scores(view)
    enemies = sorted(
        (p for p in view.others() if scores[p.id] > 0),
        key=lambda p: (-scores[p.id], p.life, p.seat),
    )
    weapon = _weapon(view, hand, enemies)
    if weapon is not None:
        yield cmd.PlayCard(player=pid, card=weapon)
    for c in cards(N.PANIC, N.CAT_BALOU):
        for p in enemies:
            yield _strip(pid, c, p)
    for c in cards(N.JAIL):
        for p in enemies:
            if scores[p.id] > 0.3:
                yield cmd.PlayCard(player=pid, card=c, target=p.id)
    for c in cards(N.GATLING, N.INDIANS):
        if _area_pays(view, scores):
            yield cmd.PlayCard(player=pid, card=c)
    shots = _shots(view)
    for c in cards(N.DUEL):
        for p in enemies:
            if len(shots) >= 2 or (shots and (p.hand_size <= 2 or p.life == 1)):
                yield cmd.PlayCard(player=pid, card=c, target=p.id)
    if view.may_bang():
        reachable = [p for p in enemies if view.distance_to(p.id) <= view.reach()]
        for p in reachable:
            for c in shots:
                # Calamity keeps one Missed! to dodge with
                if name_of(c) is N.MISSED and len(cards(N.MISSED)) < 2:
                    continue
                yield cmd.PlayCard(player=pid, card=c, target=p.id)


def _weapon(view: SeatView, hand: list[CardId], enemies: list[Seen]) -> CardId | None:
    """A weapon worth taking: a longer reach, or Volcanic with BANG!s to spend on a neighbour."""
    reach = view.reach()
    held = next((name_of(c) for c in view.me.in_play if name_of(c) in WEAPON_RANGE), None)
    best: CardId | None = None
    for c in hand:
        name = name_of(c)
        if name not in WEAPON_RANGE or name is N.VOLCANIC:
            continue
        if WEAPON_RANGE[name] > reach and (best is None or WEAPON_RANGE[name] > WEAPON_RANGE[name_of(best)]):
            best = c
    if best is not None:
        return best
    volcanic = next((c for c in hand if name_of(c) is N.VOLCANIC), None)
    if volcanic is None or held is not None or len(_shots(view)) < 2:
        return None
    if any(view.distance_to(p.id) <= 1 for p in enemies):
        return volcanic
    return None


def _strip(pid: PlayerId, card: CardId, target: Seen) -> cmd.Command:
    for wanted in _STRIP_ORDER:
        for c in target.in_play:
            if name_of(c) is wanted:
                return cmd.PlayCard(player=pid, card=card, target=target.id, target_card=c)
    return cmd.PlayCard(player=pid, card=card, target=target.id)


def _area_pays(view: SeatView, scores: dict[PlayerId, float]) -> bool:
    """Gatling or Indians! hits every other player: worth it when it hurts more enemies than
    friends, and never when it could kill a Sheriff one protects."""
    if protects_sheriff(view) and sheriff_fragile(view):
        return False
    total = sum(max(-1.0, min(1.0, s)) for s in scores.values() if s > NEVER)
    if protects_sheriff(view):
        total -= 1.0  # the Sheriff is hit too
    return total > 0.3
