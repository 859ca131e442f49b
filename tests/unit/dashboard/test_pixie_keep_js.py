"""The seat page's words for Pixie Pete's choice (services/dashboard/static/js/seat/decisions.js,
UA3): the two cards come from his own seat's ``rage_choice``, which the server sends to him
alone (``engines/dice.py``); a page without it names no card. Run in node on the very state
the engine's view gives Pixie and gives anyone else."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from services.game.engines import engine_for
from services.game.rules.dice import Game, PlayerId, Role, Seat, parse_command
from services.game.rules.dice.modules import rules_for
from services.game.rules.ruleset import ModuleId, ruleset_of

DECISIONS = Path(__file__).parents[3] / "services" / "dashboard" / "static" / "js" / "seat" / "decisions.js"
SCRIPT = """
import { controls, decisionWords, label, parse } from %s;
const state = JSON.parse(await new Promise((done) => {
  let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => done(text));
}));
const words = controls(state).others.map((c) => label(c, state));
console.log(JSON.stringify({ asks: decisionWords(state.awaiting?.decision), words,
  sean: label(parse("p1 reroll-throw"), state) }));
"""


def _view(own: bool) -> dict[str, Any]:
    characters = ("paul_regret", "jourdonnais", "willy_the_kid", "rose_doolan", "pixie_pete")
    roles = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=r, character=c)  # type: ignore[arg-type]
        for i, (r, c) in enumerate(zip(roles, characters, strict=True))
    ]
    game = Game.start(seats, rules=rules_for([ModuleId.UA2, ModuleId.UA3]))
    for line in ("p1 roll shoot1 shoot1 beer beer dynamite", "p1 stop", "p1 target 0 p5", "p1 target 1 p5"):
        game.play(parse_command(line))
    for line in ("p1 target 2 p1", "p1 target 3 p1", "p5 draw r05", "p5 draw r15"):
        game.play(parse_command(line))
    view = engine_for(ruleset_of(["UA2", "UA3"])).view(game, lambda s: True, own=lambda s: own and s == "p5")
    view["legal_commands"] = [str(c) for c in game.legal_commands()] if own else []
    return view


def _run(state: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    script = SCRIPT % json.dumps(DECISIONS.as_uri())
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(state),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_pixie_sees_his_two_cards_on_the_buttons_of_his_choice() -> None:
    answer = _run(_view(own=True))
    assert answer["asks"] == "choose which of the two Rage cards drawn to keep"
    assert answer["words"] == [
        "Keep r05 (2), put r15 (1, Beer, Dynamite) back",
        "Keep r15 (1, Beer, Dynamite), put r05 (2) back",
    ]
    assert answer["sean"] == "Throw the Duel die again"


def test_anyone_else_is_sent_no_card_and_the_page_names_none() -> None:
    state = _view(own=False)
    pixie = next(p for p in state["players"] if p["id"] == "p5")
    assert pixie["rage_choice"] is None and pixie["rage_count"] == 2
    state["legal_commands"] = ["p5 keep 0", "p5 keep 1"]  # even were a page to hold the commands
    answer = _run(state)
    assert answer["words"] == ["Keep the first Rage card drawn", "Keep the second Rage card drawn"]
    assert "r05" not in json.dumps(answer) and "r15" not in json.dumps(answer)
