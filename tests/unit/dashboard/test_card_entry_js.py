"""The card game's scorekeeper page (services/dashboard/static/js/cards/entry.js) under node: it
reads the game again on every live event, and two reads under way at once may answer out of
order. The older answer replaced the newer game on the page (its next entry was then made on a
version already gone, and refused); it is now dropped, as the dice scorekeeper page does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HARNESS = Path(__file__).with_name("card_entry.mjs")


def test_an_older_read_answering_last_does_not_replace_the_newer_game() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run(
        [node, str(HARNESS)], capture_output=True, text=True, timeout=60, check=False
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert answers["reads"] == 2
    assert answers["afterNewer"] == ["7"]
    assert answers["afterOlder"] == ["7"]
