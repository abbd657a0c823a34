"""Benchmarks: `load.py` (many full games over HTTP and websockets) and `scenarios.py`."""
