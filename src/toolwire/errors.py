"""The one exception root of toolwire.

Two kinds of trouble are kept apart, as the CLI's exit codes keep them apart:

- :class:`UsageError`: your definition, arguments or input cannot be used
  (exit 2).  The message names the bad value and says how to fix it.
- :class:`DefinitionError`: a machine, rule or protocol was declared wrongly;
  raised at import/definition time, never while checking traffic.

A rule violation found in traffic is *not* an exception: it is a
:class:`toolwire.properties.Finding` (exit 1).
"""

from __future__ import annotations

__all__ = ["DefinitionError", "ToolwireError", "UsageError"]


class ToolwireError(Exception):
    """Root of every exception toolwire raises on purpose."""


class UsageError(ToolwireError):
    """Arguments or input that toolwire cannot use; the message says how to fix it."""


class DefinitionError(ToolwireError):
    """A machine, rule or protocol declaration is inconsistent."""
