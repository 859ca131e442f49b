"""Elo for BANG! The Dice Game: factions, offsets per side, and a rating per role.

The model (see docs/ratings.md for the reasoning and the measured numbers):

* A player has an overall rating ``r`` (Elo scale, 1500 to start) and, per role, a deviation
  ``d_role`` learned from the games in that role. The rating used for a game in role ``x`` is
  ``r + shrink(n_x) * d_x`` with ``shrink(n) = n / (n + role_shrinkage)``: with few games in a
  role the role rating stays close to the overall one.
* A faction's strength is the **mean** of its members' ratings plus
  ``offset(ruleset, players, kind)``. The mean (not the sum) keeps strength independent of head
  count; the head-count and role asymmetry of a table size under a module set is exactly what
  the offset absorbs, like home advantage in Elo. Ratings themselves are one per player across
  rulesets, and role ratings are per base role (an Old Saloon special role is its base role).
* The win probabilities are a Bradley–Terry–Luce softmax on the Elo scale:
  ``P(f) = 10^(s_f/400) / Σ_g 10^(s_g/400)``; they sum to 1 over the table's factions.
* After the game every member of faction ``f`` moves by ``K_i * (actual_f - P(f)) / size_f``:
  the gradient of the log-likelihood (a member holds ``1/size`` of the faction's mean), so the
  winners share the win, eliminated ones included, and — with equal K — the points won by one
  faction are exactly those lost by the others. ``K_i`` is larger while a player is provisional
  so newcomers converge quickly.
* The offsets are fitted online from the same residuals (``offsets.py``).
* An Undead or Alive game with an outbreak (docs/rulings.md, UA4) is rated as the two factions
  it ended as, survivors against zombies (the Zombie Master with the zombies), with offsets of
  its own kinds. A dealt role no longer says what a zombie played for, so such a game predicts
  with the overall ratings and leaves the per-role ratings alone; without an outbreak a UA4
  game is rated like any other.

Everything is a pure function of the sequence of games: no clock, no randomness, no I/O. The
state is a msgspec Struct (``to_json``/``from_json``), and replaying the same games from an empty
book reproduces it bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from services.game.results import Role, Side
from services.ratings.offsets import OffsetTable
from services.ratings.outcome import GameOutcome, LeaguePlayerId, Table

ROLES: tuple[Role, ...] = (Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE)


class RatingConfig(msgspec.Struct, frozen=True, kw_only=True):
    initial: float = 1500.0
    # K, the provisional period, role_k and the offset prior were chosen on a bot league of
    # seed 2 (docs/ratings.md reports seed 1): log loss is flat within ~0.005 around them
    k: float = 16.0
    """K of an established player (points per unit of surprise, before the faction split)."""
    k_provisional: float = 64.0
    """K while a player is provisional: early games move the rating faster."""
    provisional_games: int = 30
    """A player is provisional until this many rated games."""
    role_k: float = 8.0
    """K of the per-role deviations (small: a role deviation is a slow, second-order signal)."""
    role_shrinkage: float = 10.0
    """The k of ``n / (n + k)``: after k games in a role, half the role deviation shows."""
    role_provisional_games: int = 5
    """A role rating is provisional until this many games in the role (and overall established)."""
    fit_offsets: bool = True
    """False gives plain team Elo (the baseline): no side or table-size advantage at all."""
    roles_in_prediction: bool = True
    """Predict with the role ratings (shrunk) rather than only the overall one."""
    offset_prior_games: float = 2.0
    offset_memory_games: float = 400.0
    keep_history: bool = True


class HistoryPoint(msgspec.Struct, frozen=True, array_like=True):
    """A rating right after a game: the book's game number (1-based), its id, the rating."""

    game: int
    game_id: str
    rating: float


class RoleRecord(msgspec.Struct, kw_only=True):
    deviation: float = 0.0
    games: int = 0
    wins: int = 0
    history: list[HistoryPoint] = msgspec.field(default_factory=list)
    """The displayed role rating after each game played in this role."""


class PlayerRecord(msgspec.Struct, kw_only=True):
    rating: float
    games: int = 0
    wins: int = 0
    roles: dict[Role, RoleRecord] = msgspec.field(default_factory=dict)
    history: list[HistoryPoint] = msgspec.field(default_factory=list)


class RoleRating(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    rating: float
    """Overall rating plus the shrunk role deviation: what to display for this role."""
    games: int
    wins: int
    provisional: bool


class PlayerRating(msgspec.Struct, frozen=True, kw_only=True):
    player: LeaguePlayerId
    rating: float
    games: int
    wins: int
    provisional: bool
    roles: tuple[RoleRating, ...]
    """One per role, Sheriff, Deputy, Outlaw, Renegade; a role never played shows the overall."""


class RatingChange(msgspec.Struct, frozen=True, kw_only=True):
    """What one game did to one player."""

    game_id: str
    player: LeaguePlayerId
    role: Role
    faction: Side
    won: bool
    win_probability: float
    """The faction's predicted chance before the game."""
    rating_before: float
    rating_after: float
    role_rating_before: float
    role_rating_after: float
    """The role's displayed rating: it moves with the overall rating it is built on even when
    the game did not rate roles (``role_rated``)."""
    provisional: bool
    role_rated: bool = True
    """Whether the game updated the role's rating: not an Undead or Alive game with an outbreak."""


def win_probabilities(strengths: Sequence[float]) -> list[float]:
    """Bradley–Terry–Luce on the Elo scale: P(f) = 10^(s_f/400) / Σ 10^(s_g/400)."""
    top = max(strengths)  # subtract the largest so no power overflows
    weights = [10 ** ((s - top) / 400) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


def actual_scores(outcome: GameOutcome) -> list[float]:
    """1 for the winning faction, 0 for the others; 1/m each if nobody won (a 3-way wipe-out)."""
    m = len(outcome.factions())
    winner = outcome.winner
    if winner is None:
        return [1 / m] * m
    return [1.0 if i == winner else 0.0 for i in range(m)]


class RatingBook(msgspec.Struct, kw_only=True):
    """The ratings of a league: feed it games in order with ``apply``."""

    config: RatingConfig = msgspec.field(default_factory=RatingConfig)
    players: dict[LeaguePlayerId, PlayerRecord] = msgspec.field(default_factory=dict)
    offsets: OffsetTable = msgspec.field(default_factory=OffsetTable)
    games: int = 0

    def __post_init__(self) -> None:
        # a fresh book takes its offset fitting constants from the config; a decoded book
        # already carries them
        if not self.offsets.cells:
            self.offsets.prior_games = self.config.offset_prior_games
            self.offsets.memory_games = self.config.offset_memory_games

    # --- reading -------------------------------------------------------------------------------

    def shrink(self, games_in_role: int) -> float:
        return games_in_role / (games_in_role + self.config.role_shrinkage)

    def _game_rating(self, player: LeaguePlayerId, role: Role | None) -> float:
        """The rating a player brings to a game in ``role`` (None: a game whose factions do not
        follow from the roles, an outbreak's, where only the overall rating counts)."""
        record = self.players.get(player)
        if record is None:
            return self.config.initial
        if role is None or not self.config.roles_in_prediction:
            return record.rating
        return self._role_rating(record, role)

    def _role_rating(self, record: PlayerRecord, role: Role) -> float:
        rr = record.roles.get(role)
        if rr is None:
            return record.rating
        return record.rating + self.shrink(rr.games) * rr.deviation

    def strengths(self, table: Table) -> list[float]:
        """Each faction's strength (``table.factions()`` order): mean member rating + the offset
        of the table's ruleset, size and faction kind."""
        result = []
        by_role = not table.outbreak
        for faction in table.factions():
            members = [table.seats[i] for i in faction.seats]
            ratings = [self._game_rating(s.player, s.role if by_role else None) for s in members]
            mean = sum(ratings) / len(members)
            offset = 0.0
            if self.config.fit_offsets:
                offset = self.offsets.offset(table.ruleset, table.players, faction.kind)
            result.append(mean + offset)
        return result

    def predict(self, table: Table) -> list[float]:
        """Each faction's chance to win, in ``table.factions()`` order; they sum to 1."""
        return win_probabilities(self.strengths(table))

    def rating(self, player: LeaguePlayerId) -> PlayerRating:
        """A player's ratings as a consumer should show them (a new player: the initial rating)."""
        record = self.players.get(player) or PlayerRecord(rating=self.config.initial)
        provisional = record.games < self.config.provisional_games
        roles = []
        for role in ROLES:
            rr = record.roles.get(role) or RoleRecord()
            roles.append(
                RoleRating(
                    role=role,
                    rating=self._role_rating(record, role),
                    games=rr.games,
                    wins=rr.wins,
                    provisional=provisional or rr.games < self.config.role_provisional_games,
                )
            )
        return PlayerRating(
            player=player,
            rating=record.rating,
            games=record.games,
            wins=record.wins,
            provisional=provisional,
            roles=tuple(roles),
        )

    def leaderboard(self) -> list[PlayerRating]:
        """Everyone rated, best first (ties by player id, so the order is deterministic)."""
        return sorted((self.rating(p) for p in self.players), key=lambda r: (-r.rating, r.player))

    # --- updating ------------------------------------------------------------------------------

    def _k(self, record: PlayerRecord) -> float:
        c = self.config
        return c.k_provisional if record.games < c.provisional_games else c.k

    def apply(self, outcome: GameOutcome) -> list[RatingChange]:
        """Rate one finished game; returns the change of every seated player, in seat order."""
        table = outcome.table
        factions = outcome.factions()
        expected = self.predict(table)
        actual = actual_scores(outcome)
        self.games += 1
        c = self.config
        rates_roles = outcome.rates_roles
        changes: dict[int, RatingChange] = {}
        for faction, e, a in zip(factions, expected, actual, strict=True):
            residual = (a - e) / faction.size
            for i in faction.seats:
                seat = outcome.seats[i]
                record = self.players.get(seat.player)
                if record is None:
                    record = self.players[seat.player] = PlayerRecord(rating=c.initial)
                before, role_before = record.rating, self._role_rating(record, seat.role)
                record.rating += self._k(record) * residual
                record.games += 1
                record.wins += seat.won
                role_record = record.roles.setdefault(seat.role, RoleRecord()) if rates_roles else None
                if role_record is not None:
                    role_record.deviation += c.role_k * residual
                    role_record.games += 1
                    role_record.wins += seat.won
                # after an outbreak the role's deviation and count stay; what shows for it
                # still moves with the overall rating it is built on
                role_after = self._role_rating(record, seat.role)
                if c.keep_history:
                    record.history.append(HistoryPoint(self.games, outcome.game_id, record.rating))
                    if role_record is not None:
                        role_record.history.append(HistoryPoint(self.games, outcome.game_id, role_after))
                changes[i] = RatingChange(
                    game_id=outcome.game_id,
                    player=seat.player,
                    role=seat.role,
                    faction=faction.kind,
                    won=seat.won,
                    win_probability=e,
                    rating_before=before,
                    rating_after=record.rating,
                    role_rating_before=role_before,
                    role_rating_after=role_after,
                    provisional=record.games < c.provisional_games,
                    role_rated=rates_roles,
                )
        if c.fit_offsets:
            self.offsets.update(table.ruleset, table.players, [f.kind for f in factions], expected, actual)
        return [changes[i] for i in range(len(outcome.seats))]

    # --- persistence ---------------------------------------------------------------------------

    def to_json(self) -> bytes:
        return msgspec.json.encode(self)

    @classmethod
    def from_json(cls, data: bytes) -> RatingBook:
        return msgspec.json.decode(data, type=cls)


def rebuild(outcomes: Sequence[GameOutcome], config: RatingConfig | None = None) -> RatingBook:
    """A book from scratch: the ratings a consumer holds after these games, in this order."""
    book = RatingBook(config=config or RatingConfig())
    for outcome in outcomes:
        book.apply(outcome)
    return book
