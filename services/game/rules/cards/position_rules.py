"""What a position may say, checked against the rules: refused in words when the rules could
never reach it. ``setup.check_position`` checks what any position holds (each card in one
place, lives, a game not over); ``check_turn_under_way`` what a mid-turn position adds (the
phase, phase 1's progress, the BANG!s played, cards owed, a draw! and a card resolving).

A referee's reading: refuse what no sequence of legal plays leads to, name the player, the
card and the rule; accept what some could (a position is a table's statement of fact, and
the engine's own writer must always pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.game.rules.cards.deck import card, name_of
from services.game.rules.cards.errors import InvalidSetup
from services.game.rules.cards.events import PlayerPosition, Position, ResolutionPosition, Seat
from services.game.rules.cards.vocabulary import CardId, CardName, CharacterId, CheckReason, DrawReason, Phase

RESOLVING: frozenset[CardName] = frozenset(
    {
        CardName.BANG,
        CardName.MISSED,
        CardName.BEER,
        CardName.SALOON,
        CardName.STAGECOACH,
        CardName.WELLS_FARGO,
        CardName.GENERAL_STORE,
        CardName.PANIC,
        CardName.CAT_BALOU,
        CardName.GATLING,
        CardName.INDIANS,
        CardName.DUEL,
    }
)
"""The brown cards: set aside while they resolve (blue cards go straight in play)."""
_TARGETED = frozenset({CardName.BANG, CardName.MISSED, CardName.PANIC, CardName.CAT_BALOU, CardName.DUEL})
VOLCANICS = (CardId(73), CardId(74))
MAX_BANGS = 25
"""The deck's BANG! cards (Calamity Janet may add her 12 Missed!)."""
TURN_PHASES = (Phase.START, Phase.DRAW, Phase.PLAY, Phase.DISCARD)


def _text(c: CardId) -> str:
    return f"{card(c).text} (card {c})"


def check_turn_under_way(seats: Sequence[Seat], position: Position) -> None:
    """A mid-turn position (``phase`` given), or none of its fields without one."""
    if position.phase is None:
        _nothing_under_way(position)
        return
    if position.phase not in TURN_PHASES:
        raise InvalidSetup(f"a turn under way is in phase start, draw, play or discard, not {position.phase}")
    _Turn(seats, position).check()


def _nothing_under_way(position: Position) -> None:
    default = Position(active=position.active)
    for field in (
        "dynamite_checked",
        "jail_checked",
        "skip_turn",
        "draw_step",
        "draw_from",
        "drawn",
        "bangs_played",
        "kit",
        "store",
        "owed",
        "check",
        "resolving",
    ):
        if getattr(position, field) != getattr(default, field):
            raise InvalidSetup(
                f"a position at the beginning of a turn has nothing under way: give the turn's phase "
                f"to set {field}"
            )


class _Turn:
    __slots__ = ("active", "alive", "chars", "hands", "in_play", "life", "p", "phase", "seats")

    def __init__(self, seats: Sequence[Seat], position: Position) -> None:
        self.p = position
        self.seats: list[str] = [s.player for s in seats]
        self.chars: Mapping[str, CharacterId] = {s.player: s.character for s in seats}
        listed: dict[str, PlayerPosition] = {pp.player: pp for pp in position.players}
        self.alive: dict[str, bool] = {s: (listed[s].alive if s in listed else True) for s in self.seats}
        self.life: dict[str, int] = {s: listed[s].life for s in listed}
        self.hands: dict[str, tuple[CardId, ...]] = {
            s: (listed[s].hand if s in listed else ()) for s in self.seats
        }
        self.in_play: dict[str, tuple[CardId, ...]] = {
            s: (listed[s].in_play if s in listed else ()) for s in self.seats
        }
        self.active = position.active
        assert position.phase is not None
        self.phase: Phase = position.phase

    def has(self, player: str, name: CardName) -> bool:
        return any(name_of(c) is name for c in self.in_play[player])

    def clockwise(self, player: str, *, include: bool) -> list[str]:
        i = self.seats.index(player)
        order = [self.seats[(i + k) % len(self.seats)] for k in range(len(self.seats))]
        return [s for s in (order if include else order[1:]) if self.alive[s]]

    def check(self) -> None:
        p, a, phase = self.p, self.active, self.phase
        if p.turn < 1:
            raise InvalidSetup("turns are numbered from 1")
        self._start()
        self._draw()
        self._bangs()
        for o in p.owed:
            if o.player not in self.alive or not self.alive[o.player]:
                raise InvalidSetup(f"{o.player} owed cards: only a living seated player takes cards")
            if not 1 <= o.count <= 3 and o.reason is not DrawReason.BART_CASSIDY:
                raise InvalidSetup(f"{o.player} owed {o.count} card(s) for {o.reason}: from 1 to 3")
            if o.reason is DrawReason.DEAL:
                raise InvalidSetup("the deal is over in a position: no card is owed for it")
            if o.reason is DrawReason.PHASE and (phase is not Phase.DRAW or o.player != a):
                raise InvalidSetup(f"{o.player} owed phase-1 cards: only the active player, in phase 1")
        if p.store and (
            p.resolving is None
            or p.resolving.card is None
            or name_of(p.resolving.card) is not CardName.GENERAL_STORE
            or p.resolving.resolved
        ):
            raise InvalidSetup("cards lie in the General Store only while a General Store resolves")
        if p.check is not None:
            self._check_draw()
        if p.resolving is not None:
            self._resolution(p.resolving)

    def _start(self) -> None:
        p, a = self.p, self.active
        if self.phase is Phase.START:
            if p.dynamite_checked and self.has(a, CardName.DYNAMITE):
                raise InvalidSetup(
                    f"{a}'s Dynamite has had its draw!: it exploded or passed on, it is no longer "
                    "in front of him"
                )
            if p.jail_checked and self.has(a, CardName.JAIL):
                raise InvalidSetup(f"{a}'s Jail has had its draw!, which discards it")
            if p.jail_checked and not p.dynamite_checked and self.has(a, CardName.DYNAMITE):
                raise InvalidSetup(f"{a}: Dynamite's draw! comes before the Jail's")
            if p.skip_turn and not p.jail_checked:
                raise InvalidSetup(f"{a} skips his turn only after a failed draw! for his Jail")
        elif p.skip_turn or p.dynamite_checked or p.jail_checked:
            raise InvalidSetup(
                "the start's draw! checks (dynamite_checked, jail_checked, skip_turn) are given at the "
                f"start of the turn only, not {_when(self.phase)}"
            )
        if self.phase is Phase.DRAW:
            for name in (CardName.JAIL, CardName.DYNAMITE):
                if self.has(a, name):
                    raise InvalidSetup(
                        f"{a} is in phase 1 with a {card_name(name)} in front of him: his turn began with "
                        "its draw!, which took it away"
                    )

    def _draw(self) -> None:
        p, a = self.p, self.active
        char = self.chars[a]
        kit_looks = self.phase is Phase.DRAW and char is CharacterId.KIT_CARLSON and p.draw_step == 0
        if p.kit and not kit_looks:
            raise InvalidSetup(
                "only Kit Carlson, at the beginning of his phase 1, looks at cards from the deck"
            )
        if len(p.kit) > 3:
            raise InvalidSetup("Kit Carlson looks at 3 cards")
        if not 0 <= p.draw_step <= 3:
            raise InvalidSetup(f"draw_step is 0 to 3, not {p.draw_step}")
        if self.phase is not Phase.DRAW and (p.draw_step or p.draw_from is not None or p.drawn):
            raise InvalidSetup(
                "phase 1's progress (draw_step, draw_from, drawn) is given in phase 1 only, not "
                f"{_when(self.phase)}"
            )
        if p.draw_step == 1 or p.draw_from is not None:
            other = p.draw_from
            if char is not CharacterId.JESSE_JONES or p.draw_step == 0:
                raise InvalidSetup("only Jesse Jones, in his phase 1, takes his first card from a hand")
            if other is None or other == a or other not in self.alive:
                raise InvalidSetup("Jesse Jones takes his first card from another seated player's hand")
            if p.draw_step == 1 and (not self.alive[other] or not self.hands[other]):
                raise InvalidSetup(
                    f"Jesse Jones takes his first card from {other}'s hand: a living player holding cards"
                )
        if self.phase is Phase.DRAW:
            if len(p.drawn) > 3:
                raise InvalidSetup(f"{a} takes at most 3 cards in phase 1 (Black Jack's third)")
            missing = [c for c in p.drawn if c not in self.hands[a]]
            if missing:
                raise InvalidSetup(f"{a} drew {_text(missing[0])} this phase 1 but does not hold it")

    def _bangs(self) -> None:
        p, a = self.p, self.active
        if p.bangs_played < 0:
            raise InvalidSetup("bangs_played counts BANG!s: 0 or more")
        if p.bangs_played and self.phase in (Phase.START, Phase.DRAW):
            raise InvalidSetup(f"{a} has not reached phase 2: he has played no BANG! yet this turn")
        most = MAX_BANGS + (12 if self.chars[a] is CharacterId.CALAMITY_JANET else 0)
        if p.bangs_played > most:
            raise InvalidSetup(f"{a} cannot have played {p.bangs_played} BANG!s: there are {most} to play")
        if p.bangs_played > 1 and self.chars[a] is not CharacterId.WILLY_THE_KID:
            elsewhere = all(any(v in self.in_play[s] for s in self.seats if s != a) for v in VOLCANICS)
            if elsewhere:
                raise InvalidSetup(
                    f"{a} has played {p.bangs_played} BANG!s this turn: one per turn unless Volcanic or "
                    "Willy the Kid, and both Volcanics are in play in front of other players"
                )

    def _check_draw(self) -> None:
        p, a = self.p, self.active
        c = p.check
        assert c is not None
        if c.player not in self.alive or not self.alive[c.player]:
            raise InvalidSetup(f"{c.player}: only a living seated player draws!")
        most = 2 if self.chars[c.player] is CharacterId.LUCKY_DUKE else 1
        if len(c.flips) > most:
            raise InvalidSetup(f"{c.player} flips {most} card(s) for a draw!, not {len(c.flips)}")
        if c.flips and tuple(p.discard[-len(c.flips) :]) != c.flips:
            raise InvalidSetup("a draw!'s flipped cards lie on top of the discard pile, in the order flipped")
        if c.reason in (CheckReason.DYNAMITE, CheckReason.JAIL):
            name = CardName.DYNAMITE if c.reason is CheckReason.DYNAMITE else CardName.JAIL
            if self.phase is not Phase.START or c.player != a or not self.has(a, name):
                raise InvalidSetup(
                    f"a draw! for {card_name(name)} is made by the active player at the start of his turn, "
                    f"with the {card_name(name)} in front of him"
                )
            if c.reason is CheckReason.JAIL and self.has(a, CardName.DYNAMITE) and not p.dynamite_checked:
                raise InvalidSetup(f"{a}: Dynamite's draw! comes before the Jail's")
            if p.resolving is not None:
                raise InvalidSetup("a draw! for Dynamite or Jail is made with no card resolving")
            return
        r = p.resolving
        if r is None or r.card is None or r.resolved or not r.responders or r.responders[0] != c.player:
            raise InvalidSetup(f"{c.player} draws! against a shot only while he is the one to answer it")
        if _window(r) is not CardName.BANG:
            raise InvalidSetup("a Barrel draws! only against a BANG! or a Gatling")
        if c.reason is CheckReason.BARREL:
            barrel = c.barrel
            if (
                barrel is None
                or barrel not in self.in_play[c.player]
                or name_of(barrel) is not CardName.BARREL
            ):
                raise InvalidSetup(f"{c.player} draws! with a Barrel he has in play")
        elif self.chars[c.player] is not CharacterId.JOURDONNAIS:
            raise InvalidSetup("only Jourdonnais draws! without a Barrel")

    def _resolution(self, r: ResolutionPosition) -> None:
        p, a = self.p, self.active
        if r.card is None:
            explosion = r.player is None and r.resolved and p.dynamite_checked
            if not explosion or self.phase is not Phase.START:
                raise InvalidSetup(
                    "without a card, what resolves is Dynamite's explosion: at the start of the turn, "
                    "after its draw!, with nobody's card (resolved, no player)"
                )
        else:
            name = name_of(r.card)
            if self.phase is not Phase.PLAY:
                raise InvalidSetup(f"{_text(r.card)} resolves in phase 2 only: cards are played then")
            if r.player != a:
                raise InvalidSetup(f"{_text(r.card)} is played by {a}, whose turn it is, not by {r.player}")
            if name not in RESOLVING or (
                name is CardName.MISSED and self.chars[a] is not CharacterId.CALAMITY_JANET
            ):
                raise InvalidSetup(
                    f"{_text(r.card)} does not resolve: blue cards go in play, a Missed! only answers a shot "
                    "(Calamity Janet's plays as a BANG!)"
                )
            self._target(r, name)
            self._responders(r, name)
        if r.resolved and r.responders:
            raise InvalidSetup("a card that has resolved awaits no more answers")
        for pid, n in r.lost:
            if pid not in self.alive or n < 1:
                raise InvalidSetup(f"life lost in this resolution: {pid} is not a seated player or lost {n}")
        for pid in r.doomed:
            if pid not in self.alive or self.life.get(pid, 1) > 0 or not r.resolved:
                raise InvalidSetup(
                    f"{pid} passed a dying window: only a player at 0 life or less, after the card resolved"
                )
        for triggered in r.triggered:
            if triggered not in dict(r.lost):
                raise InvalidSetup(f"{triggered}'s trigger (Bart Cassidy, El Gringo) follows life he lost")
        for who, life in self.life.items():
            answering = bool(r.responders) and _window(r) is not None
            if self.alive[who] and life <= 0 and not r.resolved and r.card is not None and not answering:
                raise InvalidSetup(
                    f"{who} is at {life} life before {_text(r.card)} has resolved: "
                    "only a shot, Indians! or a Duel takes life before the card goes to the pile"
                )

    def _target(self, r: ResolutionPosition, name: CardName) -> None:
        a = self.active
        assert r.card is not None
        if name in _TARGETED:
            if r.target is None or r.target not in self.alive:
                raise InvalidSetup(f"{_text(r.card)} names a seated player as its target")
            on_a_card = name in (CardName.PANIC, CardName.CAT_BALOU) and r.target_card is not None
            if r.target == a and not on_a_card:
                raise InvalidSetup(f"{_text(r.card)}: {a} cannot target himself with it")
        elif r.target is not None:
            raise InvalidSetup(f"{_text(r.card)} takes no target")
        if r.target_card is not None and name not in (CardName.PANIC, CardName.CAT_BALOU):
            raise InvalidSetup("only Panic! and Cat Balou choose a card in play")

    def _responders(self, r: ResolutionPosition, name: CardName) -> None:
        a = self.active
        assert r.card is not None
        who: list[str] = list(r.responders)
        if len(set(who)) != len(who) or any(w not in self.alive or not self.alive[w] for w in who):
            raise InvalidSetup("the players still to answer are living seated players, each once")
        target = r.target or ""
        allowed: list[str]
        if name in (CardName.BANG, CardName.MISSED):
            allowed = [target]
        elif name in (CardName.GATLING, CardName.INDIANS):
            allowed = self.clockwise(a, include=False)
        elif name is CardName.DUEL:
            if len(who) > 1 or (who and who[0] not in (a, target)):
                raise InvalidSetup(f"a Duel awaits one of its two players, {a} or {target}")
            allowed = who
        elif name is CardName.GENERAL_STORE:
            allowed = self.clockwise(a, include=True)
        else:
            allowed = []
        if who and not _in_order(who, allowed):
            what = "nobody" if not allowed else ", ".join(allowed)
            raise InvalidSetup(
                f"{_text(r.card)} could not be awaiting {', '.join(who)}: it asks {what}"
                + (" (clockwise)" if len(allowed) > 1 else "")
            )
        slab = self.chars[a] is CharacterId.SLAB_THE_KILLER
        need = 2 if name in (CardName.BANG, CardName.MISSED) and slab else 1
        if r.got and (_window(r) is not CardName.BANG or not who or r.got >= need):
            raise InvalidSetup(
                f"Missed! effects already played against the shot: fewer than the {need} it needs, "
                "by the player still to answer it"
            )
        first = who[0] if who else None
        for b in r.barrels_used:
            if first is None or b not in self.in_play[first] or name_of(b) is not CardName.BARREL:
                raise InvalidSetup(
                    f"{_text(b)}: a Barrel used against this shot is in play in front of its player"
                )
        if r.jourdonnais_used and (first is None or self.chars[first] is not CharacterId.JOURDONNAIS):
            raise InvalidSetup("only Jourdonnais draws! without a Barrel")
        if self.p.store and name is CardName.GENERAL_STORE:
            size = r.store_size if r.store_size is not None else sum(self.alive.values())
            if len(self.p.store) > size:
                raise InvalidSetup(f"the General Store shows one card per living player, {size}")


def _window(r: ResolutionPosition) -> CardName | None:
    """The response a resolution asks: BANG! (a shot: Missed!), Indians!, a Duel; None."""
    if r.card is None:
        return None
    name = name_of(r.card)
    if name in (CardName.BANG, CardName.MISSED, CardName.GATLING):
        return CardName.BANG
    if name in (CardName.INDIANS, CardName.DUEL):
        return name
    return None


def _in_order(sub: list[str], seq: list[str]) -> bool:
    it = iter(seq)
    return all(x in it for x in sub)


def _when(phase: Phase) -> str:
    return {
        Phase.START: "at the start of the turn",
        Phase.DRAW: "in phase 1",
        Phase.PLAY: "in phase 2",
        Phase.DISCARD: "in phase 3",
    }[phase]


def card_name(name: CardName) -> str:
    return {CardName.JAIL: "Jail", CardName.DYNAMITE: "Dynamite"}.get(name, str(name))
