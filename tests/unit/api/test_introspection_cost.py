"""Reading the whole schema once is always allowed, whatever its size; twice, or beside a costly
field, is held to the ordinary limit (services/api/graphql_cost.py, ``whole_schema_cost``).

The schema grew past the old fixed limit (10,000) as the card game and the series came in, and
GraphiQL's own introspection query was refused: the allowance now follows the schema."""

from __future__ import annotations

from graphql import get_introspection_query, parse, validate
from services.api.graphql_cost import cost_rule, whole_schema_cost
from services.api.schema import build_schema

SCHEMA = build_schema()._schema
FULL = get_introspection_query(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
)
LIMIT = 500
"""Far below one reading of the schema, so every allowance below is the schema's own."""


def refusals(query: str) -> list[str]:
    return [e.message for e in validate(SCHEMA, parse(query), [cost_rule(LIMIT)])]


def test_the_whole_schema_read_once_passes_above_the_ordinary_limit() -> None:
    assert whole_schema_cost(SCHEMA) > LIMIT
    assert refusals(FULL) == []
    assert refusals(get_introspection_query(descriptions=True)) == []


def test_the_whole_schema_read_twice_is_refused() -> None:
    head = "query IntrospectionQuery {"
    twice = FULL.replace(head, f"{head} again: __schema {{ ...SchemaTwice }}", 1) + (
        "\nfragment SchemaTwice on __Schema { types { ...FullType } }"
    )
    [message] = refusals(twice)
    assert f"exceeds {whole_schema_cost(SCHEMA):,}" in message


def test_introspection_beside_an_ordinary_field_gets_only_the_ordinary_limit() -> None:
    head = "query IntrospectionQuery {"
    mixed = FULL.replace(head, f'{head} game(id: "g1") {{ id }}', 1)
    [message] = refusals(mixed)
    assert f"exceeds {LIMIT:,}" in message


def test_a_small_introspection_costs_what_it_reads() -> None:
    assert refusals("{ __type(name: \"Game\") { name fields { name } } }") == []
    assert refusals("{ __typename }") == []
