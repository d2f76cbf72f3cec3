"""Atomic file writes, and bounded, contained reads of files named by untrusted data.

Writes: a temp file in the same folder, renamed into place. A reader never sees
a half-written file under the final name, and a process killed mid-write leaves
at most a hidden `.name-*.tmp` behind.

Reads: :func:`read_limited` reads a regular file of at most a given size;
:func:`resolve_inside` checks that a relative file reference (a manifest entry,
a package file) stays inside its folder. Both raise :class:`UnsafeFileError`.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath, PureWindowsPath


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temp path to write; it replaces `path` if the block succeeds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------- reading untrusted files


class UnsafeFileError(ValueError):
    """A file read or a file reference was refused; `reason` says why, `path` which file.

    Loaders turn it into their own error type (ItemError, RunDirError, ...).
    """

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path, self.reason = str(path), reason
        super().__init__(f"{path}: {reason}")


def read_limited(path: Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of the regular file `path`, refusing more than `max_bytes`.

    A FIFO, device or folder (say a symlink to /dev/zero, whose size reads 0) is
    refused; the read stops at `max_bytes + 1`, so a file that grows or lies about
    its size is refused too. OSError (missing, unreadable) propagates.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # non-blocking: opening a FIFO must not wait for a writer
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError(path, f"{what} is not a regular file")
        if info.st_size > max_bytes:
            raise UnsafeFileError(path, too_big(what, info.st_size, max_bytes))
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UnsafeFileError(path, too_big(what, len(data), max_bytes, "at least "))
    return data


def too_big(what: str, size: int, limit: int, qualifier: str = "") -> str:
    return f"{what} is {qualifier}{size} bytes; the limit is {limit}"


def resolve_inside(
    base: Path,
    rel: str,
    what: str,
    root: Path | None = None,
    also: Callable[[Path], bool] | None = None,
) -> Path:
    """`base / rel`, after checking that it stays inside `root` (default `base`).

    Refuses an absolute `rel` (POSIX or Windows), a `..` that leads out and a
    symbolic link (of `rel` or any folder on its way) that leads out, unless
    `also(resolved path)` accepts it; `what` names the reference in the message
    (e.g. `item file`). The returned path is not resolved, so messages keep the
    name the user wrote.
    """
    if PurePosixPath(rel).is_absolute() or PureWindowsPath(rel).drive or rel.startswith("\\"):
        message = f"{what} {rel!r} is an absolute path; give it relative to {base}"
        raise UnsafeFileError(rel, message)
    top = (root if root is not None else base).resolve()
    target = base / rel
    try:
        real = target.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, NUL in the name
        raise UnsafeFileError(target, f"cannot read {what} {rel!r}: {exc}") from None
    if not real.is_relative_to(top) and not (also is not None and also(real)):
        how = "`..`" if ".." in PurePosixPath(rel.replace("\\", "/")).parts else "a symbolic link"
        raise UnsafeFileError(target, f"{what} {rel!r} leads outside {top} (through {how})")
    return target
