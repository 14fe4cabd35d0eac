"""Linux process helpers for tests that kill a parent and watch its children go."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> list[int]:
    """The ids of the processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.parent.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is alive (a zombie has exited; only its parent's bookkeeping is left)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
