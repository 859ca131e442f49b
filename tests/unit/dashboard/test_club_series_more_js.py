"""A club's list of legacy series (services/dashboard/static/js/views/series/club-series.js) under
node: the "More series" button's read failing was swallowed (nothing said, an unhandled
rejection), and a second click while a page was being read added that page's series twice. The
failure is now said beside the button, which stays for another try, and the button is disabled
while its page is read."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HARNESS = Path(__file__).with_name("club_series_more.mjs")


def test_more_series_says_a_failed_read_and_adds_a_page_once() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run(
        [node, str(HARNESS)], capture_output=True, text=True, timeout=60, check=False
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert answers["failed"] == {"said": True, "button": True, "listed": ["a"]}
    assert answers["listed"] == ["a", "b"]
