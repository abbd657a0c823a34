"""How a server process collects cyclic garbage: the startup objects never, the rest rarely in
full.

CPython's cyclic collector walks every object of a generation it collects, and a full
collection (the oldest generation) walks everything alive. In a server holding hundreds of
sockets that is hundreds of thousands of objects: under the load benchmark one full collection
stopped the process for 70 to 330 ms, five times in a run, and each time every chat line, form
and push in flight waited (docs/benchmarks.md, change 25). Yet during play almost nothing is
cyclic garbage (a few hundred objects in 15 s; a closed socket leaves about fifty): the walk
finds next to nothing. So:

- the objects made while starting (Django, the URL conf, the templates' modules, about 60,000)
  are frozen: no collection walks them again;
- a full collection comes after 100 collections of the middle generation instead of 10, so
  about ten times more rarely; the young generations are collected as before (their pauses are
  short, and they free what most cycles there are).

This is for CPython 3.13, which the project pins: 3.14's incremental collector ignores the
oldest generation's threshold.
"""

from __future__ import annotations

import gc

# Collections of the middle generation between two full ones (CPython's default is 10).
FULL_COLLECTION_EVERY = 100


def tune_for_server() -> None:
    """Call once, when the application is loaded and before it serves anything."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    gc.collect()  # what is garbage now is not frozen with the rest
    gc.freeze()
