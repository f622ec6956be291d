"""What the tests share and do not test: the corpus, recorded-exchange fixtures, stream
accumulators, a toy protocol.

``pyproject.toml`` puts ``tests/`` on the path, so a test imports them as ``from helpers import corpus``.
"""
