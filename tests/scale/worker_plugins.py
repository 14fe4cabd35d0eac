"""A dask worker plugin for the failure test, in a module of its own: each worker process
unpickles it by importing this module, not the test module with its torch and hypothesis
imports (about 2 s of CPU in each worker started, the restarted one included)."""

from __future__ import annotations

import os

import distributed


class KillOnce(distributed.WorkerPlugin):
    """Ends its worker's process the first time any worker starts a second-round tile."""

    def __init__(self, marker: str):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and str(key).startswith("privlab-tile-"):
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))  # only once, anywhere
            except FileExistsError:
                return
            os._exit(1)
