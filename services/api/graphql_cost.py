"""What one GraphQL operation may ask for: its size, depth, aliases and cost, checked before any
resolver runs.

One anonymous 62 KB document with 1,000 aliases of ``audit(id: …)`` once kept the API's CPU busy
for 40 s: each alias replays the whole game. So every operation (queries over HTTP, subscriptions
over the WebSocket alike) passes, in this order:

1. **tokens**: parsing stops at the first lexical token past ``graphql_max_tokens``
   (strawberry's ``MaxTokensLimiter``), so a huge document costs no more than a small one;
2. **cost**: ``cost_rule``, a graphql-core validation rule, adds up ``FIELD_COSTS``, multiplying
   a list's selection by its size (the ``limit`` / ``first`` argument, else ``LIST_SIZES``),
   and refuses an operation over ``graphql_max_cost`` naming the field that costs most. It runs
   first and alone (``GraphQLLimits``; why in its docstring). Introspection (``__schema``,
   ``__type``) is counted exactly on the schema instead (``_IntrospectionCounter``), so
   GraphiQL's full introspection query passes;
3. **depth** and **aliases**, with graphql-core's own rules: strawberry's ``QueryDepthLimiter``
   and ``MaxAliasesLimiter`` (validation rules added the ``AddValidationRules`` way).

A refused operation is answered with the limit in the error's message and nothing executed.
The costs are rough CPU time: one unit is about one field resolved (~5 µs on the development
machine); a field that replays a game costs what the replay costs, measured on a 770-event
game (``audit`` ~17 ms, ``gameAt`` ~10 ms, an uncached ``game`` ~11 ms). Costs assume the
worst case (no cache): the audit cache makes a repeated audit cheap, but not a thousand
different ones.

The cost also counts against the client's rate limit (``services/api/rate_limit.py``):
``GraphQLLimits`` charges ``ceil(cost / graphql_cost_per_request)`` requests when the operation
is about to execute.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql.execution.values import get_argument_values
from graphql.language import VisitorAction
from graphql.language.visitor import SKIP
from graphql.type.definition import GraphQLField, GraphQLInterfaceType
from graphql.type.introspection import SchemaMetaFieldDef, TypeMetaFieldDef, TypeNameMetaFieldDef
from strawberry.extensions import (
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    VariableNode,
    get_introspection_query,
    get_named_type,
    get_nullable_type,
    is_list_type,
    parse,
    validate,
    value_from_ast,
)
from services.api import rate_limit
from services.api.settings import LimitSettings
from services.game.edge.gateway import EVENTS_PAGE_LIMIT

DEFAULT_FIELD_COST = 1
"""Any field not in ``FIELD_COSTS``: resolving and encoding one value."""
ROOT_FIELD_COST = 100
"""A root field not in ``FIELD_COSTS``: one read of a read model (one SQL round trip)."""

FIELD_COSTS: dict[tuple[str, str], int] = {
    # replays the whole game: reads and verifies its hash chain, re-derives every roll
    ("Query", "audit"): 4_000,
    # folds the game up to a version: reads and replays every event before it
    ("Query", "gameAt"): 2_000,
    # the cached fold, redacted; a game no longer in the cache is read and folded whole
    ("Query", "game"): 200,
    # one page of events, read and redacted (each event's fields are counted on top)
    ("Query", "gameEvents"): 200,
    # a watcher reads and folds the whole game first, then re-reads each update
    ("Subscription", "gameEvents"): 2_000,
    ("Subscription", "gameUpdates"): 2_000,
    ("Subscription", "leagueStandingsUpdated"): 200,
}
"""Per field, by (parent type, field): what it costs once, before its selection."""

DEFAULT_LIST_SIZE = 10
"""A list not in ``LIST_SIZES`` and without a ``limit``/``first``: a game's players, an audit's
checks, a batch of events are all this size or smaller."""

LIST_SIZES: dict[tuple[str, str], int] = {
    ("Query", "gameEvents"): EVENTS_PAGE_LIMIT,
    ("Query", "ratingLeaderboard"): 500,
    ("Query", "ratingRulesets"): 100,
    ("Query", "leagueHeadToHead"): 200,
    ("LeagueStandings", "lines"): 200,
    ("LeagueTournament", "rounds"): 20,
    ("LeagueRound", "tables"): 40,
    ("RatingProfile", "roles"): 4,
    ("RatingProfile", "history"): 5,
    ("RatingHistory", "points"): 500,
    # the directory's pages: ``limit`` items each (``page_size``), 100 at most
    ("Query", "clubMembers"): 100,
    ("Query", "clubLeagues"): 100,
    ("Query", "leagues"): 100,
    ("Query", "tournamentRounds"): 100,
    ("Query", "games"): 100,
    ("Query", "myGames"): 100,
    ("DirectoryMemberPage", "items"): 1,
    ("DirectoryLeaguePage", "items"): 1,
    ("DirectoryRoundPage", "items"): 1,
    ("DirectoryGamePage", "items"): 1,
    ("DirectoryRound", "tables"): 40,
}
"""The most a list can hold (the page maximum where there is a ``limit`` argument): a ``limit``
above it is costed as the maximum, so the field's own 400 names the argument."""

PAGE_ARGUMENTS = ("limit", "first")

INTROSPECTION_ROOTS = ("__schema", "__type")
INTROSPECTION_BUDGET = 1_000_000
STEPS_PER_UNIT = 2
"""A field resolved is one step; so is a fragment spread (which resolves nothing by itself)."""
"""Where counting an introspection selection stops when no limit is given (the rule passes its
limit, so a refusal costs no more steps than the limit)."""

@dataclass(slots=True)
class Validated:
    """What the cost rule found in one document."""

    variables: Mapping[str, Any] | None = None
    """As sent, so ``limit: $limit`` is costed with the value rather than the worst case."""
    costs: dict[str, int] = field(default_factory=dict)
    """Operation name ("" when unnamed) → its cost."""


@dataclass(slots=True)
class Cost:
    """An operation's (or a selection's) cost, with what each field contributed to it."""

    total: int = 0
    by_field: Counter[str] = field(default_factory=Counter)
    """``Parent.field`` → units, over every place and every list element it is asked for."""
    times: Counter[str] = field(default_factory=Counter)
    """``Parent.field`` → how many times it is resolved."""

    def add(self, other: Cost, times: int = 1) -> None:
        self.total += other.total * times
        for key, units in other.by_field.items():
            self.by_field[key] += units * times
        for key, count in other.times.items():
            self.times[key] += count * times

    def costliest(self) -> str:
        """Words for the field that costs most, for the refusal."""
        if not self.by_field:
            return "no single field"
        key, units = self.by_field.most_common(1)[0]
        times = self.times[key]
        name = key.split(".", 1)[1]
        each = units // times if times else units
        return f"`{name}` costs {each:,} each (×{times:,}: {units:,})"


def operation_cost(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    variables: Mapping[str, Any] | None = None,
    budget: int = INTROSPECTION_BUDGET,
) -> Cost:
    """The cost of one operation. A fragment is costed once however often it is spread (a
    document of fragments that each spread the previous one twice must not take 2ⁿ steps).
    Introspection is counted exactly, up to ``budget`` (the limit: past it, the count stops)."""
    root = schema.get_root_type(operation.operation)
    if root is None:
        return Cost()
    walker = _Walker(schema, fragments, _variable_values(operation, variables), budget)
    return walker.selection(operation.selection_set, root, frozenset())


class _Walker:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
        budget: int,
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.budget = budget
        roots = (schema.query_type, schema.mutation_type, schema.subscription_type)
        self.roots = {t.name for t in roots if t is not None}
        self.fragment_costs: dict[str, Cost] = {}

    def selection(
        self, selection_set: SelectionSetNode, parent: GraphQLNamedType, path: frozenset[str]
    ) -> Cost:
        cost = Cost()
        for node in selection_set.selections:
            if isinstance(node, FieldNode):
                cost.add(self.field(node, parent, path))
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                typed = self.schema.get_type(condition.name.value) if condition else parent
                cost.add(self.selection(node.selection_set, typed or parent, path))
            elif isinstance(node, FragmentSpreadNode):
                cost.add(self.fragment(node.name.value, path))
        return cost

    def fragment(self, name: str, path: frozenset[str]) -> Cost:
        if name in path:
            return Cost()  # a cycle: graphql-core's NoFragmentCyclesRule refuses the document
        known = self.fragment_costs.get(name)
        if known is not None:
            return known
        definition = self.fragments.get(name)
        typed = self.schema.get_type(definition.type_condition.name.value) if definition else None
        if definition is None or typed is None:
            return Cost()  # unknown: the specified rules say so
        cost = self.selection(definition.selection_set, typed, path | {name})
        self.fragment_costs[name] = cost
        return cost

    def field(self, node: FieldNode, parent: GraphQLNamedType, path: frozenset[str]) -> Cost:
        name = node.name.value
        definition = _field_definition(self.schema, parent, name)
        if definition is None:
            return Cost()  # unknown: FieldsOnCorrectTypeRule says so
        key = f"{parent.name}.{name}"
        if parent is self.schema.query_type and name in INTROSPECTION_ROOTS:
            return self.introspection(node, definition, key)
        own = FIELD_COSTS.get(
            (parent.name, name), ROOT_FIELD_COST if parent.name in self.roots else DEFAULT_FIELD_COST
        )
        cost = Cost(total=own, by_field=Counter({key: own}), times=Counter({key: 1}))
        if node.selection_set is not None:
            children = self.selection(node.selection_set, get_named_type(definition.type), path)
            if _is_list(definition):
                size = self.list_size(node, definition, parent.name)
            else:
                size = self.page_size(node, definition, parent.name)
            cost.add(children, size)
        return cost

    def introspection(self, node: FieldNode, definition: GraphQLField, key: str) -> Cost:
        """``__schema`` / ``__type``: the fields it will really resolve, counted on the schema."""
        counter = _IntrospectionCounter(self.schema, self.fragments, self.variables, self.budget)
        try:
            units = counter.field(node, definition, None, frozenset())
        except _OverBudget:
            units = self.budget + 1  # past the limit: how far past, nobody needs to know
        return Cost(total=units, by_field=Counter({key: units}), times=Counter({key: 1}))

    def list_size(self, node: FieldNode, definition: GraphQLField, parent: str) -> int:
        most = LIST_SIZES.get((parent, node.name.value), DEFAULT_LIST_SIZE)
        for name in PAGE_ARGUMENTS:
            if name not in definition.args:
                continue
            value = self.argument(node, name, definition)
            if isinstance(value, int):
                return max(0, min(value, most))
        return most

    def page_size(self, node: FieldNode, definition: GraphQLField, parent: str) -> int:
        """A page (an object with a page argument: the directory's ``{items, nextOffset}``) is
        costed like a list of ``limit`` items: its selection once per item (its ``items`` count
        1 in ``LIST_SIZES``)."""
        if not any(name in definition.args for name in PAGE_ARGUMENTS):
            return 1
        return self.list_size(node, definition, parent)

    def argument(self, node: FieldNode, name: str, definition: GraphQLField) -> Any:
        given = next((a.value for a in node.arguments or () if a.name.value == name), None)
        if given is None:
            return definition.args[name].default_value
        if isinstance(given, VariableNode):
            return self.variables.get(given.name.value)
        if isinstance(given, IntValueNode):
            return int(given.value)
        return value_from_ast(given, definition.args[name].type)


class _OverBudget(Exception):
    pass


class _IntrospectionCounter:
    """Counts what an introspection selection resolves, by resolving it on the schema itself
    with graphql-core's own introspection resolvers (the schema is in memory and fixed, so the
    count is exact, not a worst case). Every field resolved counts one, as any other field does;
    GraphiQL's full introspection query resolves ~4,000 of them here (~45 ms).

    Why not the estimate every other field gets: introspection lists (types, fields, args) are
    all of the schema, so a list size of 10 overcharges GraphiQL's query fivefold, while a
    selection nesting ``fields { type { fields … } }`` may cost far more than its size says.
    Why not exempt it: strawberry's depth rule leaves introspection out, so nothing else bounds
    it. Every step (a field on one value, a fragment spread) counts toward ``budget``, so the
    walk stops once it is past the limit, however the document multiplies."""

    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
        budget: int,
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.budget = budget
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps > STEPS_PER_UNIT * self.budget:
            raise _OverBudget

    def field(self, node: FieldNode, definition: GraphQLField, source: Any, path: frozenset[str]) -> int:
        if node.selection_set is None or definition.resolve is None:
            return 1  # a leaf (a name, a kind, a description): resolved as it is read
        try:
            arguments = get_argument_values(definition, node, dict(self.variables))
            value = definition.resolve(source, _SchemaInfo(self.schema), **arguments)
        except (GraphQLError, KeyError, TypeError):
            return 1  # a bad argument: the specified rules say so
        named = get_named_type(definition.type)
        if not isinstance(named, GraphQLObjectType):
            return 1
        values = list(value or ()) if _is_list(definition) else [value]  # resolvers give views, tuples
        units = 1
        for item in values:
            if item is not None:
                units += self.selection(node.selection_set, named, item, path)
        return units

    def selection(
        self, selection_set: SelectionSetNode, parent: GraphQLObjectType, source: Any, path: frozenset[str]
    ) -> int:
        units = 0
        for node in selection_set.selections:
            self.step()
            if isinstance(node, FieldNode):
                name = node.name.value
                if name == "__typename":
                    units += 1
                    continue
                definition = parent.fields.get(name)
                if definition is not None:
                    units += self.field(node, definition, source, path)
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                if condition is None or condition.name.value == parent.name:
                    units += self.selection(node.selection_set, parent, source, path)
            elif isinstance(node, FragmentSpreadNode):
                name = node.name.value
                definition = self.fragments.get(name)
                if name in path or definition is None or definition.type_condition.name.value != parent.name:
                    continue  # a cycle, an unknown fragment or another type: the specified rules say so
                units += self.selection(definition.selection_set, parent, source, path | {name})
        return units


class _SchemaInfo:
    """What graphql-core's introspection resolvers read of their ``info``."""

    __slots__ = ("schema",)

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema


def _field_definition(schema: GraphQLSchema, parent: GraphQLNamedType, name: str) -> GraphQLField | None:
    if name == "__typename":
        return TypeNameMetaFieldDef
    if parent is schema.query_type and name == "__schema":
        return SchemaMetaFieldDef
    if parent is schema.query_type and name == "__type":
        return TypeMetaFieldDef
    if isinstance(parent, (GraphQLObjectType, GraphQLInterfaceType)):
        return parent.fields.get(name)
    return None


def _is_list(definition: GraphQLField) -> bool:
    return is_list_type(get_nullable_type(definition.type))


def _variable_values(operation: OperationDefinitionNode, sent: Mapping[str, Any] | None) -> dict[str, Any]:
    """The variables as sent, else their declared defaults (None: unknown, the worst case)."""
    values: dict[str, Any] = {}
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        if sent is not None and name in sent:
            values[name] = sent[name]
        elif isinstance(definition.default_value, IntValueNode):
            values[name] = int(definition.default_value.value)
    return values


def operation_key(operation: OperationDefinitionNode) -> str:
    return operation.name.value if operation.name else ""


def introspection_only(operation: OperationDefinitionNode) -> bool:
    """Whether the operation asks for nothing but introspection (``__schema``, ``__type``,
    ``__typename`` at its root): a fragment spread at the root counts as something else."""
    return all(
        isinstance(node, FieldNode) and node.name.value in (*INTROSPECTION_ROOTS, "__typename")
        for node in operation.selection_set.selections
    )


_WHOLE_SCHEMA_COSTS: dict[int, tuple[GraphQLSchema, int]] = {}


def whole_schema_cost(schema: GraphQLSchema) -> int:
    """What the fullest standard introspection query (graphql-core's, every option on) costs on
    ``schema``: an introspection-only operation may cost that much even when it is over the
    limit. The cost of reading the schema grows with the schema, and a tool (GraphiQL, a code
    generator) must always be able to read it once; reading it twice in one document is still
    refused."""
    known = _WHOLE_SCHEMA_COSTS.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    document = parse(
        get_introspection_query(
            descriptions=True,
            specified_by_url=True,
            directive_is_repeatable=True,
            schema_description=True,
            input_value_deprecation=True,
        )
    )
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    total = operation_cost(schema, operation, fragments).total
    _WHOLE_SCHEMA_COSTS[id(schema)] = (schema, total)  # the schema is kept: its id stays its own
    return total


def cost_rule(max_cost: int, found: Validated | None = None) -> type[ValidationRule]:
    """A graphql-core rule refusing every operation that costs more than ``max_cost``, naming
    the field that costs most; each operation's cost is kept in ``found``."""
    found = found if found is not None else Validated()

    class QueryCostRule(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            self.fragments = {
                d.name.value: d for d in context.document.definitions if isinstance(d, FragmentDefinitionNode)
            }

        def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> VisitorAction:
            schema = self.context.schema
            limit = max_cost
            if introspection_only(node):
                limit = max(max_cost, whole_schema_cost(schema))
            cost = operation_cost(schema, node, self.fragments, found.variables, limit)
            found.costs[operation_key(node)] = cost.total
            if cost.total > limit:
                label = f"operation {node.name.value!r}" if node.name else "query"
                self.report_error(
                    GraphQLError(
                        f"{label} cost {cost.total:,} exceeds {limit:,}; {cost.costliest()} "
                        "(docs/api.md, 'Limits')",
                        node,
                        extensions={"code": "QUERY_TOO_COSTLY", "cost": cost.total, "maxCost": limit},
                    )
                )
            return SKIP  # the fields are walked above, fragments once each

    return QueryCostRule


class GraphQLLimits(SchemaExtension):
    """Runs the cost rule before every other validation rule, and charges the operation's cost
    to the caller's rate limit just before it executes.

    Why first, and alone: strawberry's depth and alias rules walk a fragment once per spread,
    so a document of fragments that each spread the previous one twice takes them 2ⁿ steps. The
    cost rule walks each fragment once, and every spread path ends in a field costing at least
    one, so a document within the cost limit has at most ``max_cost`` paths for them to walk; a
    document over it is refused without running them (strawberry skips validation when an
    extension has already found errors)."""

    def __init__(self, *, max_cost: int, cost_per_request: int) -> None:
        self.max_cost = max_cost
        self.cost_per_request = cost_per_request
        self.found = Validated()

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        variables = context.variables
        self.found = Validated(variables if isinstance(variables, Mapping) else None)
        if context.graphql_document is not None and context.pre_execution_errors is None:
            rule = cost_rule(self.max_cost, self.found)
            errors = validate(context.schema._schema, context.graphql_document, [rule])
            if errors:
                context.pre_execution_errors = errors
        yield

    async def on_execute(self) -> AsyncIterator[None]:
        cost = self._cost()
        if cost is not None:
            requests = max(1, math.ceil(cost / self.cost_per_request))
            await rate_limit.charge_graphql(self.execution_context.context, requests)
        yield

    def _cost(self) -> int | None:
        costs = self.found.costs
        name = self.execution_context.operation_name
        if name is not None:
            return costs.get(name)
        return next(iter(costs.values())) if len(costs) == 1 else None


def limit_extensions(limits: LimitSettings) -> list[Callable[[], SchemaExtension] | SchemaExtension]:
    """The schema's extensions that enforce ``limits``, in the order they act."""
    return [
        MaxTokensLimiter(max_token_count=limits.graphql_max_tokens),
        QueryDepthLimiter(max_depth=limits.graphql_max_depth),
        MaxAliasesLimiter(max_alias_count=limits.graphql_max_aliases),
        lambda: GraphQLLimits(
            max_cost=limits.graphql_max_cost, cost_per_request=limits.graphql_cost_per_request
        ),
    ]
