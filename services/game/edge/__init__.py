"""The game service as the outside world reaches it.

``gateway.py`` is the one door every channel uses (callers, tokens, redaction, live updates);
``http.py`` and ``http_tokens.py`` are the REST controllers and ``graphql_types.py`` the
GraphQL types, each a thin call into the gateway; ``visibility.py`` decides what a viewer may
see of a game, ``tokens.py`` who is calling, ``fanout.py`` carries live updates between API
processes, and ``bounds.py`` limits everything that comes in.
"""
