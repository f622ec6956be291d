"""cli/handlers."""

__all__: list[str] = []
