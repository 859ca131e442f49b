"""`python -m infra.run_watch FD`: the watcher of a test run's directory (infra/run_dir.py,
`guard_run_dir`). It reads the pipe FD until its end of file, which comes when the run that
started it has ended, however it ended (its write end closes with the process, even under
SIGKILL); then it stops the servers left running in the directory named by
``BANG_RUN_DIR_WATCHED`` and removes it. A run that ended well removed it already: nothing to do.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from infra.run_dir import WATCHED_DIR_ENV, abandon_run_dir


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the run's to handle; this only cleans up after
    pipe, path = int(argv[1]), Path(os.environ[WATCHED_DIR_ENV])
    while True:
        try:
            if not os.read(pipe, 1):
                break
        except InterruptedError:
            continue
    abandon_run_dir(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
