"""The rules' choices for a new game, over REST: what a page offers before ``POST /games``.

Anybody may read them (they are the published rules, nothing of any game); each answer is made
by ``services/game/edge/choices.py`` from the rules as this server plays them now.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import Parameter

from services.game.edge.choices import RulesetChoices, SeatChoices, ruleset_choices, seat_choices

RulesetText = Annotated[
    str,
    Parameter(
        min_length=1,
        max_length=200,
        pattern=r"^[A-Za-z0-9_ -]+$",
        description="A ruleset's compact form: the game type, then its modules or options "
        "(`dice OS1 OS3`, `cards eight_players`)",
    ),
]


class RulesetController(Controller):
    path = "/rulesets"
    tags = ["games"]

    @get(
        "/",
        operation_id="rulesets",
        summary="Each game type's table sizes, modules (played here or not) or options, roles per size",
    )
    async def rulesets(self) -> RulesetChoices:
        return ruleset_choices()

    @get(
        "/seats",
        operation_id="rulesetSeats",
        summary="A ruleset's seats at a table size: seat ids, roles, the character pool, OS3's special roles",
    )
    async def seats(
        self,
        ruleset: RulesetText,
        players: Annotated[int, Parameter(ge=1, le=16, description="The table size")],
    ) -> SeatChoices:
        return seat_choices(ruleset, players)
