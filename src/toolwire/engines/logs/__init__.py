"""engines/logs."""

__all__: list[str] = []
