"""Running bang-league as a service: the projection registry, the process supervisor behind
`bang-league serve`, the separate production processes (API, consumers), structured logs,
Prometheus metrics and the operator tooling. See docs/operations.md.

The layer under the services: nothing in here imports a service (tests/unit/
test_import_boundaries.py). It finds their pieces by path (`services/<svc>/projections.py`,
`tasks.py`, `schema.py`, `migrations/`), starts processes by their command lines, and is handed
the rest (the store's mapper in `open_context`). Nothing in here decides game or league rules.
"""
