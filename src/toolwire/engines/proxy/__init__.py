"""engines/proxy."""

__all__: list[str] = []
