"""engines/gateway."""

__all__: list[str] = []
