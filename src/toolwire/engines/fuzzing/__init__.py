"""engines/fuzzing."""

__all__: list[str] = []
