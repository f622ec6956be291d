"""Repair a tool-call history so that its protocol, and a stricter provider, accept it.

The repairer pairs each result with its call as the protocol does, then writes the history back
with each call answered right after its turn, nothing lost (an orphaned result becomes a note
naming its call) and every change said with the rule it answers.  A history ``check`` finds clean
comes back untouched.

>>> from toolwire.engines.repair import repair
>>> fixed = repair([{"role": "tool", "tool_call_id": "call_9", "content": "42"},
...                 {"role": "user", "content": "Hello"}], "openai-chat")
>>> [(c.rule, c.action) for c in fixed.changes]
[('CC-3', 'note')]
>>> fixed.history[0]["content"]
"[toolwire repair] Result of tool call 'call_9', kept as text because its call is not in this history: 42"
"""

from toolwire.engines.repair._files import Body, read_body, repair_body, repair_path, write_body
from toolwire.engines.repair._repair import CONTEXT, PROVIDERS, REPAIRABLE, lint, provider_of_wire, repair
from toolwire.properties._change import ACTIONS, Action, Change, Repair
from toolwire.properties._repair import OrphanPolicy, Provider, ProviderRule, UnansweredPolicy

__all__ = [
    "ACTIONS",
    "CONTEXT",
    "PROVIDERS",
    "REPAIRABLE",
    "Action",
    "Body",
    "Change",
    "OrphanPolicy",
    "Provider",
    "ProviderRule",
    "Repair",
    "UnansweredPolicy",
    "lint",
    "provider_of_wire",
    "read_body",
    "repair",
    "repair_body",
    "repair_path",
    "write_body",
]
