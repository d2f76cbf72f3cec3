"""One runner per run directory: an exclusive lock on `RUN_DIR/.lock`.

The lock is an advisory `flock` held for the whole run; the kernel drops it
when the process ends, however it ends (SIGKILL included), so a crashed run
never leaves a stale lock. A second runner on the same directory fails at
once with a clear message.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from duplexbench.campaign._rundir import RunDirError, storage_error

LOCK = ".lock"


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold the run directory's lock (created if needed) for the block.

    A folder that cannot be created or written is a `StorageError` naming it.
    """
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(run_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise storage_error(exc, f"cannot write the run directory {run_dir}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(
                f"{run_dir} is in use by another duplexbench runner; wait for it or use "
                "another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)
