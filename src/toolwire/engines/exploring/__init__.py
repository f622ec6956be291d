"""engines/exploring."""

__all__: list[str] = []
