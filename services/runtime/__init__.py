"""Running bang-league as a service: the projection registry, the process supervisor behind
`bang-league serve`, the separate production processes (API, worker, consumers), structured
logs, Prometheus metrics and the operator tooling. See docs/operations.md.

Nothing in here decides game or league rules: it wires the services' own pieces together.
"""
