"""The one GraphQL schema: every service's query, mutation and subscription types merged.

Adding a service's types is one line in ``PARTS``. A module that does not exist yet is left
out (services land one at a time); a module that exists but lacks the named type is an error,
so a typo never silently drops a service from the API. ``graphql/schema.graphql`` is this
schema printed (``bang-league graphql export``); a test fails when the two drift apart.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from typing import Any

import strawberry
from strawberry.extensions import MaskErrors
from strawberry.schema.schema import DEFAULT_ALLOWED_OPERATION_TYPES
from strawberry.tools import merge_types
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType

from event_store import EventStoreError
from graphql import GraphQLError
from services.api.errors import problem_for
from services.api.graphql_cost import limit_extensions
from services.api.graphql_problems import ProblemDetails, client_error
from services.api.settings import LimitSettings
from services.game.application.errors import GameServiceError
from services.game.edge.bounds import InvalidArgument
from services.game.records import RecordError
from services.game.rules.dice import RuleError
from services.league.errors import LeagueError

log = logging.getLogger(__name__)

# (module, its Query type, its Subscription type or None)
PARTS: tuple[tuple[str, str, str | None], ...] = (
    ("services.game.edge.graphql_types", "GameQuery", "GameSubscription"),
    ("services.game.edge.series_graphql", "SeriesQuery", None),
    ("services.league.graphql_types", "LeagueQuery", "LeagueSubscription"),
    ("services.ratings.graphql_types", "RatingsQuery", None),
    ("services.directory.graphql_types", "DirectoryQuery", None),
)

# (module, its Mutation type)
MUTATIONS: tuple[tuple[str, str], ...] = (
    ("services.game.edge.graphql_mutations", "GameMutation"),
    ("services.game.edge.series_graphql", "SeriesMutation"),
    ("services.league.edge.graphql_mutations", "LeagueMutation"),
    ("services.clubs.graphql_mutations", "ClubMutation"),
)

# Errors whose messages are written for the caller (and never carry a hidden role or the
# seed); anything else is masked as "Unexpected error." so an unexpected message cannot leak.
SHOWN_ERRORS: tuple[type[Exception], ...] = (
    GameServiceError,
    RuleError,
    RecordError,
    EventStoreError,
    LeagueError,
    InvalidArgument,
)


def _shown(error: GraphQLError) -> bool:
    original = error.original_error
    # the document's or the variables' (graphql-core's) are the client's: shown, said at INFO;
    # an error with a problem type is shown as REST shows it (ProblemDetails says it)
    return (
        client_error(error)
        or original is None
        or isinstance(original, SHOWN_ERRORS)
        or problem_for(original) is not None
    )


def service_types() -> tuple[list[type[Any]], list[type[Any]]]:
    queries: list[type[Any]] = []
    subscriptions: list[type[Any]] = []
    for module_name, query, subscription in PARTS:
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        queries.append(getattr(module, query))
        if subscription is not None:
            subscriptions.append(getattr(module, subscription))
    return queries, subscriptions


class _Schema(strawberry.Schema):
    async def execute(self, *args: Any, **kwargs: Any) -> ExecutionResult:
        """A subscription is never executed as a query (over HTTP strawberry allowed it, and its
        resolver's stream ended as "Unexpected error."): strawberry then refuses it with a 400,
        said in words by ``GraphQLRefusals``. Subscriptions are served over the WebSocket."""
        allowed = kwargs.get("allowed_operation_types") or DEFAULT_ALLOWED_OPERATION_TYPES
        kwargs["allowed_operation_types"] = set(allowed) - {OperationType.SUBSCRIPTION}
        return await super().execute(*args, **kwargs)

    def process_errors(self, errors: list[GraphQLError], execution_context: Any = None) -> None:
        """Log errors without their text: strawberry's default prints the query source, which
        may hold a token passed as an argument, and an unexpected error's message may say
        anything. Errors written for the caller are theirs, not the log's; the document's or the
        variables' are the client's mistake, said at INFO without a traceback."""
        for error in errors:
            if client_error(error):
                refused = "variables" if error.message.startswith("Variable '$") else "document"
                log.info("GraphQL request refused: its %s (the client's mistake)", refused)
            elif not _shown(error):
                original = error.original_error
                log.error(
                    "GraphQL error at %s: %s",
                    ".".join(map(str, error.path or ())) or "(document)",
                    type(original or error).__name__,
                    exc_info=original,
                )


def build_schema(limits: LimitSettings | None = None) -> strawberry.Schema:
    """The schema, with the size, depth, alias and cost limits of ``limits`` (the defaults
    when not given; ``services/api/graphql_cost.py``)."""
    queries, subscriptions = service_types()
    query = merge_types("Query", tuple(queries))
    mutations = [getattr(importlib.import_module(module), name) for module, name in MUTATIONS]
    mutation = merge_types("Mutation", tuple(mutations)) if mutations else None
    subscription = merge_types("Subscription", tuple(subscriptions)) if subscriptions else None
    return _Schema(
        query=query,
        mutation=mutation,
        subscription=subscription,
        extensions=[
            lambda: MaskErrors(should_mask_error=lambda error: not _shown(error)),
            ProblemDetails,
            *limit_extensions(limits or LimitSettings()),
        ],
    )


def schema_sdl(schema: strawberry.Schema | None = None) -> str:
    """The schema as SDL text, as ``graphql/schema.graphql`` holds it."""
    return (schema or build_schema()).as_str().rstrip("\n") + "\n"
