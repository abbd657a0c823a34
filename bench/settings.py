"""The load benchmark's server settings: the app's, with the ping in its URLconf (bench/urls.py).

With Redis, the channel layer's prefix comes from BENCH_LAYER_PREFIX: Redis pub/sub ignores the
database number, so two runs on one Redis would otherwise hear each other's tables.
"""

import os

from onenight.settings import *  # noqa: F403
from onenight.settings import CHANNEL_LAYERS

ROOT_URLCONF = "bench.urls"
if os.environ.get("BENCH_LAYER_PREFIX") and "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["BENCH_LAYER_PREFIX"]
