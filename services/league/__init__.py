"""Leagues, seasons, tournaments and standings for BANG! The Dice Game, from the event stream.

See docs/league.md. The parts, by idea:

* ``commands`` / ``events`` / ``errors`` / ``vocabulary``: what organisers ask, what happened,
  what is refused, and the policies (``PointsScheme``, ``SeatingPolicy``);
* ``club`` / ``league``: the aggregates, each a pure ``decide`` + ``evolve``;
* ``service``: ``LeagueService``, which loads, decides and appends (idempotent by command id);
* ``seating``: the pure round seating (Swiss groups, fewest repeats, Sheriff rotation, byes);
* ``points`` / ``ranking``: points per result and the tie-break order, pure;
* ``standings`` / ``read_model``: the exactly-once projection and its queries;
* ``bot_league`` / ``tasks``: bot rounds and the Celery tasks; ``graphql_types``: the API.
"""
