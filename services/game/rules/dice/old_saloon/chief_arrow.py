"""OS2, The Arrow of the Indian Chief (RULINGS-expansions §OS2).

The Chief's Arrow is a tenth token in the pile (``modules.RulesModule.extra_arrows``). Whoever
takes an arrow from the pile while it is there may take it instead of a regular one (this
module's question); it is worth two in an Indian attack, and its holder loses nothing if he
alone has the most arrows (``flow._indian_attack``). Taking the pile's last token, the Chief's
included, brings the attack (ruling §11 Q6). Tokens leave a player regular ones first.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Emit
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.flow import take_arrow
from services.game.rules.dice.modules import RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import ArrowReason, PlayerId
from services.game.rules.ruleset import ModuleId


class ChiefDecision(StrEnum):
    ARROW_TOKEN = "arrow_token"


class ArrowTokenChosen(ev.Event, frozen=True, kw_only=True):
    """The taker chose which token to take (the ``ArrowTaken`` or ``ChiefArrowTaken`` follows)."""

    player: PlayerId
    chief: bool


def _arrow_token_chosen(s: GameState, e: ArrowTokenChosen) -> None:
    pass  # the token taken is the next event's


def arrow_choice(s: GameState, taker: PlayerId) -> Awaiting | None:
    """Which token, when both kinds are in the pile (the Chief's alone is simply taken)."""
    if s.chief_in_pile and s.arrow_pile > 1:
        return Awaiting(player=taker, decision=ChiefDecision.ARROW_TOKEN)
    return None


def arrow_reason(s: GameState, taker: PlayerId) -> ArrowReason:
    """Why the awaited token is taken: an arrow face of the roll, else El Gringo's penalty (the
    only other arrow taken one at a time by ``flow``)."""
    t = s.turn
    assert t is not None
    if s.rage is not None and s.rage.arrows_left > 0 and t.player == taker:
        return ArrowReason.RAGE  # UA2: a revealed Rage card's arrow (S4)
    if t.roll_arrows_left > 0 and t.player == taker:
        return ArrowReason.ROLL
    return ArrowReason.HIT_BACK


def _check(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.TakeArrow)


def _respond(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.TakeArrow)
    emit(ArrowTokenChosen(player=c.player, chief=c.chief))
    take_arrow(s, c.player, arrow_reason(s, c.player), emit, chief=c.chief)


def _generate(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.TakeArrow(player=q.player, chief=False)
    yield cmd.TakeArrow(player=q.player, chief=True)


def _timeout(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.TakeArrow(player=q.player, chief=False)


OS2 = RulesModule(
    id=ModuleId.OS2,
    decisions=(
        DecisionSpec(
            ChiefDecision.ARROW_TOKEN,
            Who.OWNER,
            TurnPoint.ON_RESOLVE_ARROWS,
            "choose the Chief's Arrow or a regular arrow",
            (cmd.TakeArrow,),
            _check,
            _respond,
            _generate,
            _timeout,
            BotHint.DECLINE,
        ),
    ),
    arrow_choice=arrow_choice,
    extra_arrows=1,
    events=MappingProxyType({ArrowTokenChosen: _arrow_token_chosen}),
)
