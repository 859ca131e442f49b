"""Hand-built ends of Undead or Alive (UA4) games, as the dice engine records them (the UA4
contract of docs/rulings.md, "how a zombie win is scored and rated"): after an outbreak every
line's ``side`` is its side at the end, ``zombie`` is True for a plain zombie and False for every
other seat, and ``GameEnded.outbreak_turn`` names the outbreak's turn. The roles stay the dealt
ones. Five seats, p1 to p5: Sheriff, Renegade, Outlaw, Outlaw, Deputy.

A plain zombie still in play is written as the engine writes him (``undead/zombies.py``: the
outbreak makes him alive again and clears his elimination), or, with
``zombies_in_play_alive=False``, as not alive with his pre-outbreak elimination on record, a
form the decoder reads the same way.
"""

from __future__ import annotations

from services.game.rules.dice import Cause, CharacterId, GameEnded, PlayerId, PlayerResult
from services.game.rules.dice import Role as DiceRole
from services.game.rules.dice import Side as DiceSide

FIVE_ROLES = (DiceRole.SHERIFF, DiceRole.RENEGADE, DiceRole.OUTLAW, DiceRole.OUTLAW, DiceRole.DEPUTY)
OUTBREAK_TURN = 6


def _line(
    seat: int,
    side: DiceSide,
    *,
    won: bool,
    alive: bool,
    zombie: bool,
    out_turn: int | None = None,
    by: str | None = None,
) -> PlayerResult:
    return PlayerResult(
        player=PlayerId(f"p{seat}"),
        role=FIVE_ROLES[seat - 1],
        character=CharacterId.BART_CASSIDY,
        side=side,
        won=won,
        alive=alive,
        eliminated_by=None if by is None else PlayerId(by),
        eliminated_cause=None if out_turn is None else Cause.SHOOT1,
        eliminated_turn=out_turn,
        zombie=zombie,
    )


def zombie_win(*, zombies_in_play_alive: bool = True) -> GameEnded:
    """The zombies win on turn 10. p3 (Outlaw, out on turn 3) and p5 (Deputy, out on turn 5)
    rose at the outbreak of turn 6, the living Renegade p2 became the Zombie Master; p5 was put
    out for good on turn 8, the survivors p1 and p4 fell on turn 10. Winners: p2, p3, p5."""
    p3 = (
        _line(3, DiceSide.ZOMBIES, won=True, alive=True, zombie=True)
        if zombies_in_play_alive
        else _line(3, DiceSide.ZOMBIES, won=True, alive=False, zombie=True, out_turn=3, by="p1")
    )
    return GameEnded(
        winning_side=DiceSide.ZOMBIES,
        winners=(PlayerId("p2"), PlayerId("p3"), PlayerId("p5")),
        results=(
            _line(1, DiceSide.SURVIVORS, won=False, alive=False, zombie=False, out_turn=10, by="p3"),
            _line(2, DiceSide.ZOMBIE_MASTER, won=True, alive=True, zombie=False),
            p3,
            _line(4, DiceSide.SURVIVORS, won=False, alive=False, zombie=False, out_turn=10, by="p2"),
            _line(5, DiceSide.ZOMBIES, won=True, alive=False, zombie=True, out_turn=8, by="p4"),
        ),
        turn=10,
        outbreak_turn=OUTBREAK_TURN,
    )


def survivor_win() -> GameEnded:
    """The survivors win on turn 9. The Renegade p2 (out on turn 2) and the Outlaw p3 (out on
    turn 4) rose at the outbreak of turn 6 as plain zombies (no Renegade was alive: no Master);
    p4, a survivor, fell on turn 8; p2 and p3 were put out for good on turns 7 and 9. Winners:
    p1, p4 and p5, whatever their roles."""
    return GameEnded(
        winning_side=DiceSide.SURVIVORS,
        winners=(PlayerId("p1"), PlayerId("p4"), PlayerId("p5")),
        results=(
            _line(1, DiceSide.SURVIVORS, won=True, alive=True, zombie=False),
            _line(2, DiceSide.ZOMBIES, won=False, alive=False, zombie=True, out_turn=7, by="p1"),
            _line(3, DiceSide.ZOMBIES, won=False, alive=False, zombie=True, out_turn=9, by="p5"),
            _line(4, DiceSide.SURVIVORS, won=True, alive=False, zombie=False, out_turn=8, by="p3"),
            _line(5, DiceSide.SURVIVORS, won=True, alive=True, zombie=False),
        ),
        turn=9,
        outbreak_turn=OUTBREAK_TURN,
    )


def no_outbreak_law_win() -> GameEnded:
    """A UA4 game that ended before any outbreak: the Law won on turn 7, base sides, no
    ``zombie`` flag and no ``outbreak_turn``."""
    base = {
        DiceRole.SHERIFF: DiceSide.LAW, DiceRole.DEPUTY: DiceSide.LAW,
        DiceRole.OUTLAW: DiceSide.OUTLAWS, DiceRole.RENEGADE: DiceSide.RENEGADE,
    }
    return GameEnded(
        winning_side=DiceSide.LAW,
        winners=(PlayerId("p1"), PlayerId("p5")),
        results=tuple(
            PlayerResult(
                player=PlayerId(f"p{i + 1}"),
                role=role,
                character=CharacterId.BART_CASSIDY,
                side=base[role],
                won=base[role] is DiceSide.LAW,
                alive=base[role] is DiceSide.LAW,
                eliminated_cause=None if base[role] is DiceSide.LAW else Cause.SHOOT2,
                eliminated_turn=None if base[role] is DiceSide.LAW else 7,
            )
            for i, role in enumerate(FIVE_ROLES)
        ),
        turn=7,
    )
