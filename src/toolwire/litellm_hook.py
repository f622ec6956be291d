"""toolwire's repairer inside LiteLLM's proxy: a pre-call hook that repairs each request's history.

LiteLLM calls :meth:`ToolwireRepair.async_pre_call_hook` with the request body before it sends it
upstream; the hook repairs the body's history (``messages``; ``input`` on the Responses route) as
the proxy's ``--repair`` does (:func:`toolwire.engines.repair.repair` with the fields that bring a
stored context in: ``previous_response_id``, ``conversation``), with the provider profile the
config names for requests of its wire (another wire's get their protocol's own rules), and returns
the body repaired.  Each change is logged (logger ``toolwire.litellm``) with the rule it
answers; a body that needs nothing is passed on untouched, and one toolwire cannot read is passed
on as it came (said in the log).  Needs toolwire installed where LiteLLM runs (litellm is not a
dependency of toolwire).

In LiteLLM's ``config.yaml``, the ready instance (its profile from ``TOOLWIRE_REPAIR_FOR``)::

    litellm_settings:
      callbacks: toolwire.litellm_hook.repair_hook

or, for a profile per model, a module beside the config (``callbacks: repair_callbacks.hook``)::

    from toolwire.litellm_hook import ToolwireRepair
    hook = ToolwireRepair(provider="openai", providers={"deepseek-chat": "deepseek"})
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, get_args

from toolwire.engines.repair import (
    CONTEXT,
    PROVIDERS,
    OrphanPolicy,
    Repair,
    UnansweredPolicy,
    provider_of_wire,
    repair,
)
from toolwire.errors import UsageError
from toolwire.protocols import _registry

__all__ = ["PROTOCOLS", "ToolwireRepair", "repair_hook"]

if TYPE_CHECKING:
    _Base = object
else:
    try:
        from litellm.integrations.custom_logger import CustomLogger as _Base
    except ImportError:  # litellm is not a dependency: without it the hook is a plain class
        _Base = object

log = logging.getLogger("toolwire.litellm")

#: LiteLLM's call type -> the protocol of the request's history, and the body key that holds it
#: (each protocol's descriptor names the call types of its requests).
PROTOCOLS: Final[dict[str, tuple[str, str]]] = {
    call_type: (name, spec.container or "messages")
    for name, spec in _registry.PROTOCOLS.items()
    for call_type in spec.call_types
}


class ToolwireRepair(_Base):
    """A LiteLLM ``CustomLogger`` whose pre-call hook repairs the request's tool-call history.

    ``provider`` names the profile every request is repaired for (``openai``, ``deepseek``,
    ``mistral``, ...; None: the wire's own rules); ``providers`` names one per model (the model the
    client asked for), before ``provider``.  ``on_repair`` is called with each repair that changed
    something (a gateway may keep :attr:`Repair.ids` to map the next response's ids back).

    >>> import asyncio
    >>> hook = ToolwireRepair()
    >>> body = {"model": "gpt", "messages": [{"role": "user", "content": "Hi"},
    ...         {"role": "tool", "tool_call_id": "call_9", "content": "42"}]}
    >>> out = asyncio.run(hook.async_pre_call_hook(None, None, body, "acompletion"))
    >>> out["messages"][1]["role"]
    'user'
    """

    def __init__(
        self,
        provider: str | None = None,
        providers: Mapping[str, str] | None = None,
        *,
        orphan_results: OrphanPolicy = "text",
        unanswered_calls: UnansweredPolicy = "error-result",
        on_repair: Callable[[Repair], None] | None = None,
    ) -> None:
        super().__init__()
        if orphan_results not in get_args(OrphanPolicy):
            raise UsageError(f"orphan_results={orphan_results!r}: choose text or drop")
        if unanswered_calls not in get_args(UnansweredPolicy):
            raise UsageError(f"unanswered_calls={unanswered_calls!r}: choose error-result or drop")
        for name in (provider, *(providers or {}).values()):
            if name is not None and name not in PROVIDERS:
                raise UsageError(f"no provider profile {name!r}; choose among: {', '.join(PROVIDERS)}")
        self.provider = provider
        self.providers = dict(providers or {})
        self.orphan_results = orphan_results
        self.unanswered_calls = unanswered_calls
        self.on_repair = on_repair

    def repaired(self, data: dict[str, Any], call_type: str) -> dict[str, Any]:
        """``data`` with its history repaired (``data`` itself when nothing is to be repaired).

        The history is repaired as the proxy's ``--repair`` repairs a request body: with the
        request fields that bring a stored context in (``previous_response_id``, ``conversation``:
        a result may answer a call of it), and with the profile only when the request is of the
        profile's wire (a request of another wire gets its own protocol's rules).  The rest of
        ``data`` (LiteLLM's own keys among it) comes back as it was.
        """
        route = PROTOCOLS.get(call_type)
        if route is None:
            return data
        protocol, key = route
        history = data.get(key)
        if not isinstance(history, list):
            return data
        model = data.get("model")
        provider = self.providers.get(model, self.provider) if isinstance(model, str) else self.provider
        provider = provider_of_wire(provider, protocol)  # another wire: its own protocol's rules
        # What repair reads of a body: its history and the fields that bring a stored context in
        # (LiteLLM's data holds objects of its own besides, which toolwire need not read).
        body: dict[str, Any] = {key: history, **{k: data[k] for k in CONTEXT if k in data}}
        try:
            done = repair(
                body,
                protocol,
                provider=provider,
                orphan_results=self.orphan_results,
                unanswered_calls=self.unanswered_calls,
            )
        except UsageError as exc:
            log.warning("toolwire repair: passed on as it came: %s", exc)
            return data
        for change in done.changes:
            log.warning(
                "toolwire repair: %s %s %s: %s", change.rule, change.action, change.path, change.reason
            )
        if not done.changed:
            return data
        done = replace(done, history=done.history[key])
        if self.on_repair is not None:
            self.on_repair(done)
        return {**data, key: done.history}

    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: str
    ) -> dict[str, Any]:
        """LiteLLM's pre-call hook: the request body to send upstream, its history repaired."""
        return self.repaired(data, call_type)


#: The instance ``callbacks: toolwire.litellm_hook.repair_hook`` loads: the profile named in
#: ``TOOLWIRE_REPAIR_FOR`` (none when it is unset).
repair_hook: Final = ToolwireRepair(os.environ.get("TOOLWIRE_REPAIR_FOR") or None)
