"""Fairness of online games: what is derived from a game's secret seed, and how.

An online game publishes ``sha256(seed)`` when it is created and reveals the seed when it ends;
everything random in between is *derived* from the seed by a named, versioned algorithm, so
anyone holding the seed re-derives it and an audit can check it. The versions a game used are
recorded in its ``GameCreated`` (``fairness``); a game recorded before versions existed used
``deal-1`` and ``dice-1``.

- ``streams`` — the HMAC-SHA256 byte streams of a seed and the unbiased ``below(k)``.
- ``dice`` — where faces come from (``DiceSource``), the seed itself, and ``dice-1``.
- ``deal`` — ``deal-1``: seat order, roles and characters.
- ``versions`` — ``Fairness``, the record of which version of each derivation a game uses.
- ``registry`` — version name → algorithm, so an audit re-derives with what the game recorded.

Every table an algorithm reads (faces, characters, roles) is written out in its version as an
ordered literal and mapped to the engine's values by name: a new face or character in the
engine never changes what an existing version derives. A change of table or algorithm is a
new version beside the old ones, never an edit of them.

This package's ``__init__`` imports nothing: ``lifecycle`` records ``versions.Fairness`` while
``deal`` needs ``lifecycle``'s seat ids.
"""
