"""What the engines need to know of a protocol: its descriptor, its family and its quirk profiles.

A protocol family (``protocols/<family>/``) declares one :class:`Family`: the
:class:`Protocol` descriptors of its protocol names, its rules, machines, quirk
profiles and id shapes.  The registry (``_registry``) lists the families; the
engines and the CLI ask it, and never name a protocol.

Everything a descriptor points at that imports Hypothesis (its generator, its
state space) is named through :func:`load`, so that reading descriptors, as
``toolwire check`` does, imports neither.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from toolwire.errors import UsageError
from toolwire.properties._monitor import Monitor
from toolwire.properties._rule import Rule
from toolwire.properties._turn import Call

if TYPE_CHECKING:
    from toolwire.properties._shapes import Shapes
    from toolwire.properties._sites import Sites

__all__ = ["PROFILE_SOURCES", "SENDERS", "Family", "Protocol", "Quirk", "Result", "Shape", "load"]

Shape = Literal["stream", "conversation"]


class Result(NamedTuple):
    """A tool result as a trace carried it."""

    #: The id of the call it answers (None where the wire pairs results by name or position).
    id: str | None
    #: The tool's name, where the wire gives it.
    name: str | None
    content: Any


def load(module: str, name: str) -> Callable[[], Any]:
    """A loader of ``module.name``, imported on first call (keeps Hypothesis off ``check``'s path)."""

    def loader() -> Any:
        return getattr(importlib.import_module(module), name)

    loader.__qualname__ = f"load({module}.{name})"
    return loader


#: Providers and gateways a quirk profile can name as its senders (``fuzz --providers``), by the
#: name a user types, with the name a report shows.  A key is named by some profile, or is the name
#: of a repair provider profile (``repair --for``: deepseek, groq, moonshot); a profile's ``source``
#: spells the display names of its senders after "sent by:" (or "accepted by:").
SENDERS: dict[str, str] = {
    "openai": "OpenAI",
    "azure": "Azure OpenAI",
    "gemini": "Gemini",
    "vertex": "Vertex AI",
    "mistral": "Mistral",
    "ollama": "Ollama",
    "deepseek": "DeepSeek",
    "moonshot": "Moonshot (Kimi)",
    "groq": "Groq",
    "openrouter": "OpenRouter",
    "novita": "Novita AI",
    "litellm": "LiteLLM",
    "nvidia": "NVIDIA Inference Hub",
    "dynamo": "NVIDIA Dynamo",
    "plexus": "Plexus",
    "bedrock-access-gateway": "Bedrock Access Gateway",
    "cliproxyapi": "CLIProxyAPI",
}


@dataclass(frozen=True, slots=True)
class Quirk:
    """A way real providers bend a protocol.

    ``deviates`` names the rules of ``protocols`` that traffic with this quirk
    breaks on purpose (empty when the quirk is legal but unusual): ``check``
    reports exactly those on it, and a converter must still cope.
    ``excludes`` names quirks it cannot be combined with; ``sequential``
    quirks make calls arrive one after the other.  ``unanswered_optional``:
    the calls such traffic leaves without a result wait on the client, and a
    converter may drop them (or keep them): they are not owed.
    """

    name: str
    summary: str
    protocols: tuple[str, ...]
    source: str
    deviates: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    sequential: bool = False
    #: The shape features that mark traffic with this quirk (``toolwire shapes``, ``fuzz --like``).
    features: tuple[str, ...] = ()
    unanswered_optional: bool = False
    #: The providers and gateways recorded or documented sending traffic with this quirk (keys of
    #: :data:`SENDERS`; ``source`` says where each was seen, after "sent by:"): ``fuzz --providers``
    #: draws only the profiles of the providers named, and a finding that needs the profile names
    #: them.  A request-side profile (a history a client sends) names the providers recorded
    #: accepting such requests (after "accepted by:"); none where no provider is known to.
    providers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Protocol:
    """One wire protocol name and everything the engines need of it.

    ``check`` uses ``shape``, ``monitor`` (or a named ``profiles`` variant:
    tokenizer or SDK versions), ``container`` (the request-body key that holds
    a conversation's list: ``messages``, ``input``, ``contents``) and
    ``follows`` (the stream protocols whose calls a request of this protocol
    replays: ``check --after`` and the round-trip rules).

    The relations read a trace's calls from its monitor, or from ``calls``
    where the monitor does not reassemble them, and its tool results from
    ``results``.  ``intact`` names the call/result pairs a damaged history
    still holds intact (``fuzz --mutate``).  ``sites`` say where calls sit for
    the mutators, and ``breaks`` which rule ``check`` reports for each
    mutation.  ``probe`` builds the smallest valid trace in which an id is a
    call's id and its answer's (``toolwire ids``).

    ``generator`` and ``space`` load the Hypothesis strategy's renderer and the
    explorer's state space class (see :func:`load`); ``shapes`` is the catalogue
    of the shape features its traffic shows, and their extractor.

    ``endpoints`` and ``variant_of`` let ``check`` detect the protocol of a
    trace or of a cassette's exchange when ``-p`` is not given.
    """

    name: str
    summary: str
    shape: Shape
    monitor: Callable[[], Monitor]
    container: str | None = None
    follows: tuple[str, ...] = ()
    profiles: Mapping[str, Callable[[], Monitor]] = field(default_factory=dict)
    probe: Callable[[str], Any] | None = None
    calls: Callable[[list[Any]], list[Call]] | None = None
    results: Callable[[list[Any]], Iterable[Result]] | None = None
    intact: Callable[[list[Any]], set[str]] | None = None
    sites: Sites | None = None
    breaks: Mapping[str, str] = field(default_factory=dict)
    generator: Callable[[], Any] | None = None
    space: Callable[[], Any] | None = None
    shapes: Shapes | None = None
    #: Whether one event or message looks like this protocol's at all; for protocols whose
    #: monitor passes foreign events over silently (``check`` then says nothing was recognised).
    recognises: Callable[[Any], bool] | None = None
    #: Where this protocol's traffic is sent: patterns searched in a recorded exchange's
    #: ``host/path`` (``/v1/chat/completions$``); the longest match names the protocol.
    endpoints: tuple[str, ...] = ()
    #: The protocol whose wire this one shares, as a stricter profile of it: when content alone
    #: cannot tell them apart (no endpoint), detection picks that one.
    variant_of: str | None = None
    #: Its trace is one JSON document (a non-streaming response body), where a stream's is many
    #: values: detection tells a body from a stream of the same shapes (Gemini's) by this.
    document: bool = False
    #: Loads what the repairer needs of this protocol's histories (see :func:`load`): an
    #: :class:`~toolwire.properties._repair.Adapter`, or a function rebuilding a history of its
    #: own (``messages, orphan_results=, unanswered_calls=`` -> ``Rebuilt``); None: not repaired.
    repair: Callable[[], Any] | None = None
    #: The names the gateway integrations give a request of this protocol (LiteLLM's call types:
    #: ``acompletion``, ``aresponses``, ...).
    call_types: tuple[str, ...] = ()

    def make(self, profile: str | None = None) -> Monitor:
        """A fresh monitor, of ``profile`` when given; a :class:`UsageError` lists the profiles."""
        return self.factory(profile)()

    def factory(self, profile: str | None = None) -> Callable[[], Monitor]:
        """What :meth:`make` calls: for a caller that makes many monitors (one per request body).
        Each monitor it makes can make more of its kind (:attr:`Monitor.remake`)."""
        make = self._factory(profile)

        def build() -> Monitor:
            monitor = make()
            monitor.remake = build
            return monitor

        return build

    def _factory(self, profile: str | None) -> Callable[[], Monitor]:
        if profile is None:
            return self.monitor
        if profile in self.profiles:
            return self.profiles[profile]
        more = {name: make for source in PROFILE_SOURCES for name, make in source(self).items()}
        if profile not in more:
            choices = ", ".join([*self.profiles, *more]) or "none"
            raise UsageError(f"{self.name} has no profile {profile!r}; its profiles: {choices}")
        return more[profile]

    def profile_names(self) -> list[str]:
        """Its own profiles, then those :data:`PROFILE_SOURCES` add (the provider profiles)."""
        return [*self.profiles, *(name for source in PROFILE_SOURCES for name in source(self))]

    @property
    def replays(self) -> bool:
        """A request of this protocol replays a stream's calls: the round-trip rules apply."""
        return bool(self.follows)


#: Where profiles beyond a descriptor's own come from: each maps a descriptor to more of its
#: profiles, by name.  The registry adds one: the provider profiles (``repair --for``) of the wires
#: they are of, so that ``check --profile deepseek`` judges a history as ``repair --for`` mends it.
PROFILE_SOURCES: list[Callable[[Protocol], Mapping[str, Callable[[], Monitor]]]] = []


@dataclass(frozen=True, slots=True)
class Family:
    """A protocol family: its protocols, rules, machines, quirk profiles and id shapes.

    ``catalogue`` is the section of the rules catalogue (docs/protocol-rules.md)
    its rules come from: ``toolwire rules`` lists families in that order.
    ``id_shapes`` are id shapes seen in the wild (``toolwire ids`` names
    them; they are not contracts); ``envelope_ids`` are prefixes of the ids of
    envelopes (a response, a message), which are not call ids.
    """

    name: str
    catalogue: int
    protocols: tuple[Protocol, ...]
    rules: tuple[Rule, ...]
    machines: tuple[type, ...] = ()
    quirks: tuple[Quirk, ...] = ()
    id_shapes: tuple[tuple[re.Pattern[str], str], ...] = ()
    envelope_ids: tuple[str, ...] = ()
    #: Loads the provider profiles of this family's wires (a tuple of
    #: :class:`~toolwire.properties._repair.Provider`; see :func:`load`).
    providers: Callable[[], Any] | None = None
