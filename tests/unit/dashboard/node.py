"""Running a dashboard harness (an ``.mjs`` beside its test) under node and reading what it
printed as JSON: the dashboard's node tests' one runner."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any


def run_harness(harness: Path) -> dict[str, Any]:
    """What ``harness`` printed on stdout (one JSON object); the test fails on its stderr."""
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is missing: `make setup` installs nodejs (apt-get install nodejs)"
    done = subprocess.run([node, str(harness)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    answers: dict[str, Any] = json.loads(done.stdout)
    return answers
