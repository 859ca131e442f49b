"""Every way a stalled or vanished PostgreSQL or Redis surfaces on a request path is a 503 with
a fixed detail (never a 500, never a library's text), on REST and GraphQL alike; and the
timeouts are read from the environment, 0 meaning no limit."""

from __future__ import annotations

import asyncpg
import pytest
import redis.asyncio as aioredis

from event_store import StoreUnavailable
from graphql import GraphQLError
from services.api.errors import problem_for
from services.api.graphql_problems import with_problem
from services.api.settings import ApiSettings, TimeoutSettings

OUTAGES: list[BaseException] = [
    TimeoutError(),  # a pool acquire or command timeout, an asyncio.timeout
    ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)"),  # postmaster gone
    asyncpg.exceptions.CannotConnectNowError("the database system is starting up"),
    asyncpg.exceptions.QueryCanceledError("canceling statement due to statement timeout"),
    asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    aioredis.ConnectionError("Error connecting to unix socket"),
    aioredis.TimeoutError("Timeout reading from socket"),
]


@pytest.mark.parametrize("error", OUTAGES, ids=lambda e: type(e).__name__)
def test_an_outage_is_a_503_with_a_fixed_detail(error: BaseException) -> None:
    problem = problem_for(error)
    assert problem is not None
    assert (problem.status, problem.slug) == (503, "unavailable")
    assert problem.detail and "5432" not in problem.detail and "socket" not in problem.detail


@pytest.mark.parametrize("error", OUTAGES, ids=lambda e: type(e).__name__)
def test_graphql_says_the_same_problem_instead_of_the_library_text(error: BaseException) -> None:
    said = with_problem(GraphQLError("raw text", original_error=error))
    problem = (said.extensions or {})["problem"]
    assert problem["status"] == 503 and problem["retry_after"] > 0
    assert problem["type"].endswith("/unavailable")
    assert said.message == problem["detail"] != "raw text"
    assert said.original_error is None  # nothing left for masking or logging to show


def test_the_event_store_keeps_its_own_words_and_gains_the_problem() -> None:
    error = StoreUnavailable("event store database unavailable (TimeoutError: )")
    said = with_problem(GraphQLError(str(error), original_error=error))
    assert said.message == str(error)
    assert (said.extensions or {})["problem"]["type"].endswith("/store-unavailable")


def test_an_error_without_a_problem_type_is_left_alone() -> None:
    error = GraphQLError("boom", original_error=ValueError("boom"))
    assert with_problem(error) is error


def test_timeouts_come_from_the_environment_and_0_means_no_limit() -> None:
    settings = ApiSettings.from_env(
        {"BANG_DATABASE_COMMAND_TIMEOUT": "0.5", "BANG_DATABASE_STATEMENT_TIMEOUT": "0"}
    ).timeouts
    assert settings.database_command == 0.5
    assert settings.database_statement is None
    pool = settings.pool()
    assert pool.command == 0.5 and pool.acquire == TimeoutSettings().database_acquire
    assert pool.server_settings() == {"idle_in_transaction_session_timeout": "10000"}


@pytest.mark.parametrize("raw", ["soon", "-1", "nan", "inf"])
def test_a_timeout_that_is_not_a_duration_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(ValueError, match="BANG_DATABASE_ACQUIRE_TIMEOUT"):
        ApiSettings.from_env({"BANG_DATABASE_ACQUIRE_TIMEOUT": raw})
