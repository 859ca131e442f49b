"""The directory's pages are costed as lists of ``limit`` items (services/api/graphql_cost.py,
``page_size``): a hundred games cost about a hundred times one, and a page too large to resolve
cheaply is refused before any resolver runs, naming the field."""

from __future__ import annotations

from graphql import OperationDefinitionNode, parse
from services.api.graphql_cost import operation_cost
from services.api.schema import build_schema
from services.api.settings import LimitSettings

SCHEMA = build_schema()._schema
GAMES = """
query ($limit: Int!) {
  games(limit: $limit) {
    nextOffset
    items { gameId status createdAt league { name } players { memberId displayName seat won } }
  }
}
"""
ROUNDS = """
query ($limit: Int!) {
  tournamentRounds(leagueId: "l", tournamentId: "t", limit: $limit) {
    items { round tables { table members { memberId displayName } sheriff { displayName } } }
  }
}
"""


def cost(query: str, **variables: object) -> int:
    document = parse(query)
    [operation] = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    return operation_cost(SCHEMA, operation, {}, variables).total


def test_a_page_costs_its_items_times_the_limit() -> None:
    one, hundred = cost(GAMES, limit=1), cost(GAMES, limit=100)
    per_game = one - 100  # the root field's own read
    assert per_game > 40  # its fields and up to ten players' four
    assert hundred == 100 + 100 * per_game
    # a limit past the page maximum is costed as the maximum (the field's own 400 names it)
    assert cost(GAMES, limit=1000) == hundred
    assert hundred < LimitSettings().graphql_max_cost  # a full page of games is allowed


def test_a_page_of_rounds_too_large_to_resolve_cheaply_is_refused_and_a_small_one_is_not() -> None:
    budget = LimitSettings().graphql_max_cost
    assert cost(ROUNDS, limit=5) < budget < cost(ROUNDS, limit=100)
