"""Lists and searches (issue 11): games, a club's members and leagues, a league's seasons and
tournaments, a tournament's rounds, each person shown by display name with their id for links.

``projection`` keeps the ``directory_*`` read model from the game, league and club streams
(never an engine's event, never a role); ``queries`` reads it, naming people from the
accounts (then the league club's registered name, then the name the game was joined with);
``http`` and ``graphql_types`` are the REST and GraphQL edges. Reads only: nothing here writes
an event.
"""
