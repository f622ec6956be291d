"""engines/_core."""

__all__: list[str] = []
