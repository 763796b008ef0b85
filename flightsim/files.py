"""Writing output files: all or nothing, with the user's usual permissions.

:func:`atomic_write` writes through a temporary file beside the target and
renames it into place only when everything was written, so a failed or
interrupted write leaves neither a half-written file nor the temporary one.
The file is created with mode ``0o666`` filtered by the umask (``0o644``
for the usual umask ``022``), as ``open()`` would, not ``0o600`` as
:func:`tempfile.mkstemp` does.  A symbolic link is written through; a
device or a pipe (``/dev/null``) is written in place, never replaced.

:func:`check_writable_folder` finds out early, before a long run, whether a
file can be created in a folder.
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_write", "check_writable_folder"]


def _create_beside(path):
    """Create a new temporary file beside ``path`` (mode 0o666 & ~umask); return (descriptor, its path)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        return fd, tmp
    raise FileExistsError(f"no free temporary name beside {path}")


@contextmanager
def atomic_write(path, mode="w", **open_kwargs):
    """Open ``path`` for writing, all or nothing.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced if it exists).
    mode : {"w", "wb"}
        Text or binary.
    **open_kwargs
        Passed to :func:`open` (``newline``, ``encoding``).

    Yields
    ------
    file object
        Write to it; when the ``with`` block ends normally the file is
        renamed to ``path``, otherwise it is removed and the exception
        propagates.

    Raises
    ------
    OSError
        The folder does not exist or cannot be written, the disk is full, ...
        (nothing is left behind).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode: must be 'w' or 'wb', got {mode!r}")
    path = Path(os.path.realpath(path))             # through a symbolic link, not over it
    if path.exists() and not path.is_file() and not path.is_dir():
        # a device or a pipe (/dev/null, /dev/stdout): written in place, never replaced
        with open(path, mode, **open_kwargs) as f:
            yield f
        return
    fd, tmp = _create_beside(path)
    try:
        with os.fdopen(fd, mode, **open_kwargs) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_writable_folder(folder):
    """Raise :class:`OSError` unless a file can be created in ``folder`` (it is created and removed)."""
    fd, tmp = _create_beside(Path(folder) / "flightsim-probe")
    os.close(fd)
    tmp.unlink(missing_ok=True)
