"""GraphQL errors carry the problem details a REST answer would: one error tree, two channels.

The client's mistakes are told apart from the server's faults here too (``client_error``): an
error about the document or its variables, found by graphql-core before any resolver ran (it has
no ``path``, and no cause other than graphql-core's own), is the client's: it is shown, logged at
INFO (``services/api/schema.py``), and when it is the variables' (a wrong type, an Int past 32
bits, a required one missing) the answer is a 400 problem naming the variable in plain words
(``GraphQLRefusals``), with the GraphQL ``errors`` beside it. An error with a path is a resolver's:
the services' refusals are shown, anything else is masked and logged at ERROR with its traceback.
The document's own errors (syntax, unknown fields, the limits) stay GraphQL errors in a 200, as
before.

A resolver's error whose class has a problem type (``services/api/errors.py``) gets
``extensions.problem``: the REST body's ``type``, ``title``, ``status`` and ``detail``, and for a
503 ``retry_after`` (seconds), so a client tells "retry in 2 s" from "refused" the same way on
both channels. A problem with a fixed detail (a library's timeout or dropped connection, whose
own text may say anything) is said with that detail instead of the library's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec
from cross_web import HTTPException as GraphQLHTTPException
from litestar import Request, Response
from litestar.exceptions import ClientException, HTTPException
from strawberry.extensions import SchemaExtension
from strawberry.schema.exceptions import InvalidOperationTypeError
from strawberry.types.execution import PreExecutionError
from strawberry.types.graphql import OperationType

from graphql import GraphQLError
from services.api.errors import (
    PROBLEM_BASE,
    PROBLEM_JSON,
    RETRY_AFTER_SECONDS,
    Problem,
    problem_body,
    problem_for,
)

GRAPHQL_PATH = "/graphql"
SUBSCRIPTIONS_OVER_WEBSOCKET = f"subscriptions are served over the WebSocket at {GRAPHQL_PATH}, not HTTP"
VARIABLE_REFUSED = Problem(400, "invalid-variables", "A variable does not fit its type")
VARIABLES_REFUSED_TYPE = PROBLEM_BASE + VARIABLE_REFUSED.slug


def problem_extension(problem: Problem, error: BaseException) -> dict[str, Any]:
    extension: dict[str, Any] = {
        "type": PROBLEM_BASE + problem.slug,
        "title": problem.title,
        "status": problem.status,
        "detail": problem.detail or str(error),
    }
    if problem.status == 503:
        extension["retry_after"] = RETRY_AFTER_SECONDS
    return extension


def with_problem(error: GraphQLError) -> GraphQLError:
    original = error.original_error
    problem = None if original is None else problem_for(original)
    if original is None or problem is None:
        return error
    return GraphQLError(
        message=problem.detail or error.message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        # a fixed detail replaces the text, so nothing is left to mask or to log
        original_error=original if problem.detail is None else None,
        extensions={**(error.extensions or {}), "problem": problem_extension(problem, original)},
    )


def client_error(error: GraphQLError) -> bool:
    """graphql-core's refusal of the document or its variables: no resolver ran (no path), and
    nothing but graphql-core raised it (a fault elsewhere has a cause of another class)."""
    original = error.original_error
    return not error.path and (original is None or isinstance(original, GraphQLError))


# graphql-core's words for a variable's value (graphql/execution/values.py,
# graphql/utilities/validate_input_value.py, graphql/type/scalars.py)
_INVALID_VALUE = re.compile(
    r"^Variable '\$(?P<name>\w+)' has invalid (?:default )?value(?: at (?P<at>\S+))?: (?P<why>.*)$", re.S
)
_WHY = tuple(
    (re.compile(f"^{said}$", re.S), words)
    for said, words in (
        (r"Expected a value of non-null type '(.+)' to be provided\.", "a value of type {} is required"),
        (r"Expected value of non-null type '(.+)' not to be None\.", "must not be null ({})"),
        (r"Int cannot represent non 32-bit signed integer value: (.*)", "{} is not a 32-bit Int"),
        (r"Int cannot represent non-integer value: (.*)", "{} is not an Int"),
        (r"Float cannot represent non numeric value: (.*)", "{} is not a number"),
        (r"String cannot represent a non string value: (.*)", "{} is not a String"),
        (r"Boolean cannot represent a non boolean value: (.*)", "{} is not a Boolean (true or false)"),
        (r"ID cannot represent value: (.*)", "{} is not an ID"),
    )
)  # fmt: skip


def variable_refusal(message: str) -> str | None:
    """graphql-core's refusal of a variable in plain words (``variable $n: 4294967296 is not a
    32-bit Int (…)``), or None when the message is not about a variable's value."""
    if not (match := _INVALID_VALUE.match(message)):
        return None
    why = match["why"]
    for pattern, words in _WHY:
        if said := pattern.match(why):
            why = words.format(said.group(1))
            break
    return f"variable ${match['name']}{match['at'] or ''}: {why}"


def with_variable_problem(error: GraphQLError) -> GraphQLError:
    """A variable graphql-core refused, said plainly and carrying a 400 ``invalid-variables``."""
    if not client_error(error) or (plain := variable_refusal(error.message)) is None:
        return error
    return GraphQLError(
        message=plain,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        extensions={
            **(error.extensions or {}),
            "code": "BAD_VARIABLE_INPUT",
            "problem": problem_extension(VARIABLE_REFUSED, error) | {"detail": plain},
        },
    )


class ProblemDetails(SchemaExtension):
    """Adds ``extensions.problem`` to each error of a result (list it after ``MaskErrors``:
    extensions finish in reverse order, so this one sees the errors before they are masked)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if errors:
            if not isinstance(result, PreExecutionError) and getattr(result, "data", None) is None:
                # refused while the variables were coerced, before any resolver (a document's
                # own "Variable '$x' is never used." is a validation error: a PreExecutionError)
                errors = [with_variable_problem(error) for error in errors]
            result.errors = [with_problem(error) for error in errors]  # type: ignore[union-attr]


class GraphQLRefusals:
    """Mixed into the GraphQL controller: a request refused before it is run is answered as every
    other refusal is, problem details by the one mapping (``services/api/errors.py``), not
    strawberry's plain text; an operation whose variables were refused is a 400."""

    async def execute_request(self, request: Request[Any, Any, Any], context: Any, root_value: Any) -> Any:
        try:
            return await self.run(request, context=context, root_value=root_value)  # type: ignore[attr-defined]
        except GraphQLHTTPException as error:
            raise _refusal(error) from None

    def create_response(self, response_data: Any, sub_response: Response[bytes]) -> Response[bytes]:
        errors = response_data.get("errors") if isinstance(response_data, dict) else None
        if errors and response_data.get("data") is None and sub_response.status_code in (None, 200):
            problems = [(e.get("extensions") or {}).get("problem") or {} for e in errors]
            # the variables' refusals only: a resolver's 400 (an argument out of its bounds) is
            # a GraphQL error in a 200, as ever
            if all(p.get("type") == VARIABLES_REFUSED_TYPE for p in problems):
                detail = "; ".join(str(p["detail"]) for p in problems)
                body = problem_body(
                    400, VARIABLE_REFUSED.slug, VARIABLE_REFUSED.title, detail, GRAPHQL_PATH, errors=errors
                )
                return Response(msgspec.json.encode(body), status_code=400, media_type=PROBLEM_JSON)
        return super().create_response(response_data, sub_response)  # type: ignore[misc, no-any-return]


def _refusal(error: GraphQLHTTPException) -> HTTPException:
    cause = error.__cause__
    if isinstance(cause, InvalidOperationTypeError) and cause.operation_type is OperationType.SUBSCRIPTION:
        return ClientException(SUBSCRIPTIONS_OVER_WEBSOCKET)
    if error.status_code == 400:
        return ClientException(error.reason)
    return HTTPException(status_code=error.status_code, detail=error.reason)
