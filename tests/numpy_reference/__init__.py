"""The engine's earlier narrow phase, written as numpy operations on whole batches.

It is exact and was proven against the independent oracles in ``tests/oracles.py``; the
compiled kernels in ``engine`` must agree with it on every field, so it stays here as a
second, independently written implementation to test them against.
"""
