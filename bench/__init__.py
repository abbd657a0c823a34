"""Benchmarks: `load.py` (many full games over HTTP and websockets), `scenarios.py` and
`werewolf.py` (the engines alone)."""
