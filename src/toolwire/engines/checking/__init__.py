"""engines/checking."""

__all__: list[str] = []
