"""GraphQL errors carry the problem details a REST answer would: one error tree, two channels.

A resolver's error whose class has a problem type (``services/api/errors.py``) gets
``extensions.problem``: the REST body's ``type``, ``title``, ``status`` and ``detail``, and for a
503 ``retry_after`` (seconds), so a client tells "retry in 2 s" from "refused" the same way on
both channels. A problem with a fixed detail (a library's timeout or dropped connection, whose
own text may say anything) is said with that detail instead of the library's text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from strawberry.extensions import SchemaExtension

from graphql import GraphQLError
from services.api.errors import PROBLEM_BASE, RETRY_AFTER_SECONDS, Problem, problem_for


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


class ProblemDetails(SchemaExtension):
    """Adds ``extensions.problem`` to each error of a result (list it after ``MaskErrors``:
    extensions finish in reverse order, so this one sees the errors before they are masked)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = [with_problem(error) for error in errors]  # type: ignore[union-attr]
