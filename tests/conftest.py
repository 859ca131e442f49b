"""Test-wide settings.

Hypothesis explores new random examples on every developer run; CI (``CI=true``) replays a
fixed, derandomised set so that a submission's verdict does not depend on the draw.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
