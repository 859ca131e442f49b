"""The legacy series page (services/dashboard/static/js/views/series/series.js) under node: it
reads the series again every few seconds, and a slow read could answer after a newer one (the
next poll, or the reload after a decision). The older series then replaced the newer on the page
(a question already answered came back, with controls); it is now dropped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HARNESS = Path(__file__).with_name("series_poll.mjs")


def test_an_older_read_of_the_series_answering_last_does_not_replace_the_newer() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run(
        [node, str(HARNESS)], capture_output=True, text=True, timeout=60, check=False
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert answers["first"] == ["1"]
    assert answers["newer"] == ["2"]
    assert answers["afterOlder"] == ["2"]
