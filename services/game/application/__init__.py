"""The game application service: one path for every change to a game.

``service.py`` loads a game's stream, folds it (``session.py``), lets the engine decide and
appends the result with the expected version; ``lifecycle.py`` holds the events around the
rules (created, joined, seats dealt, seed revealed), ``codec.py`` how all of them are stored,
``errors.py`` what the service refuses, and ``deadlines.py`` the projection and sweeper that
play a late player's default. The edge (``services.game.edge``) calls in; nothing here
imports the edge.
"""
