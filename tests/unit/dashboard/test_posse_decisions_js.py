"""UA3's character decisions are answerable from the seat page and the scorekeeper's page: for
each of Sam the Healer's heal, Greg Digger's second heal of a beer, Belle Star's dynamite, Chuck
Wengam's die, Pat Brennan's Rage card, Pixie Pete's keep and Sean Mallory's throw, the state is
taken from a game played by bots with those characters dealt (the engine's own view and legal
commands), and the pages' own JavaScript (seat/decisions.js, seat/targets.js,
entry/decisions.js) runs on it under node: every legal command gets a control with words of its
own, never the bare command text."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from services.game.bots import HeuristicBot
from services.game.engines import engine_for
from services.game.engines.dice import awaiting_detail
from services.game.rules.dice import Game, GameState, PlayerId, Role, Seat
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.commands import GameCommand
from services.game.rules.ruleset import ruleset_of
from services.game.simulation import game_seeds, play_game

JS = Path(__file__).parents[3] / "services" / "dashboard" / "static" / "js"
SCRIPT = """
import { controls, decisionWords, label } from %s;
import { describeCommand } from %s;
const states = JSON.parse(await new Promise((done) => {
  let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => done(text));
}));
const answer = {};
for (const [decision, state] of Object.entries(states)) {
  const c = controls(state);
  const seat = [...c.aims.flatMap((group) => group.options), ...c.others];
  answer[decision] = {
    asks: decisionWords(decision),
    seat: seat.map((command) => [command.text, label(command, state)]),
    entry: state.legal_commands.map((text) => [text, describeCommand(text, state)]),
  };
}
console.log(JSON.stringify(answer));
"""
POSSE = (
    "sam_the_healer",
    "belle_star",
    "chuck_wengam",
    "pat_brennan",
    "pixie_pete",
    "sean_mallory",
    "greg_digger",
)
ROLES = (Role.SHERIFF, Role.OUTLAW, Role.OUTLAW, Role.RENEGADE, Role.DEPUTY, Role.OUTLAW, Role.DEPUTY)
WANTED = ("sam_heal", "belle_convert", "chuck_set", "pat_move", "pixie_keep", "sean_reroll", "greg_heal")
RULESET = ruleset_of(["UA1", "UA2", "UA3"])


class _Spy:
    """A bot that keeps, the first time each wanted decision is asked, what its page is sent."""

    def __init__(self, found: dict[str, dict[str, Any]]) -> None:
        self.bot = HeuristicBot(0.8)
        self.found = found

    def choose(self, game: Game | GameState, q: Awaiting, rng: random.Random) -> GameCommand:
        assert isinstance(game, Game)
        decision = q.decision.value
        if decision in WANTED and decision not in self.found:
            view = engine_for(RULESET).view(game, lambda s: True, own=lambda s: s == q.player)
            view["awaiting"] = awaiting_detail(q)
            view["legal_commands"] = [str(c) for c in game.legal_commands()]
            self.found[decision] = view
        return self.bot.choose(game, q, rng)


def _states() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for index in range(40):
        rng, dice = game_seeds(7, index, RULESET)
        turn = index % len(POSSE)
        order = POSSE[turn:] + POSSE[:turn]
        seats = [
            Seat(player=PlayerId(f"p{k + 1}"), role=role, character=character)  # type: ignore[arg-type]
            for k, (role, character) in enumerate(zip(ROLES, order, strict=True))
        ]
        play_game(seats, _Spy(found), dice, rng, ruleset=RULESET)
        if set(found) == set(WANTED):
            return found
    raise AssertionError(f"40 games asked only {sorted(found)} of {WANTED}")


def _run(states: dict[str, dict[str, Any]]) -> dict[str, Any]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    script = SCRIPT % (
        json.dumps((JS / "seat" / "decisions.js").as_uri()),
        json.dumps((JS / "entry" / "decisions.js").as_uri()),
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(states),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_every_ua3_decision_has_a_worded_control_for_each_legal_command_on_both_pages() -> None:
    states = _states()
    answer = _run(states)
    for decision in WANTED:
        legal = states[decision]["legal_commands"]
        got = answer[decision]
        assert "_" not in got["asks"], (decision, got["asks"])
        # the seat page: one control per legal command (nothing dropped), each in words
        assert sorted(text for text, _ in got["seat"]) == sorted(legal), decision
        for text, words in got["seat"] + got["entry"]:
            assert words and words != text, (decision, text, words)
    by_text = {d: dict(answer[d]["seat"]) for d in WANTED}
    assert by_text["belle_convert"][states["belle_convert"]["legal_commands"][0]] == "Keep the dynamite"
    belle_set = next(t for t in states["belle_convert"]["legal_commands"] if " set " in t)
    assert by_text["belle_convert"][belle_set].endswith("into a Beer")  # hers is free: no "Pay 1 life"
    chuck_set = next(t for t in states["chuck_set"]["legal_commands"] if " set " in t)
    assert by_text["chuck_set"][chuck_set].startswith("Pay 1 life: set die")
    assert (
        by_text["sean_reroll"][f"{states['sean_reroll']['awaiting']['player']} reroll-throw"]
        == "Throw the Duel die again"
    )
    assert any(
        words.startswith("Move ") and "face-down Rage card" in words for words in by_text["pat_move"].values()
    )
    sam = states["sam_heal"]["awaiting"]["player"]
    assert by_text["sam_heal"][f"{sam} decline"] == "Heal nobody for this shot"
    assert answer["sam_heal"]["asks"].startswith("choose who gains 1 life")
    greg = states["greg_heal"]["awaiting"]["player"]
    assert by_text["greg_heal"][f"{greg} decline"] == "Give this beer no second heal"
    assert by_text["greg_heal"][f"{greg} target {greg}"].startswith("Choose ")
    assert answer["greg_heal"]["asks"] == "choose who gets the second heal of the beer (Greg Digger)"
