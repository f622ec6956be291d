"""An HTTP gateway as a fuzz target: toolwire plays the upstream provider and the client.

``toolwire fuzz http://HOST:PORT/PATH --from P --to Q --upstream 127.0.0.1:UPORT``:
the mock provider (``_mock_provider.py``) listens on ``--upstream`` and answers
with the example's generated ``P`` traffic; the client (httpx) sends a ``Q``
request to the gateway, declaring a tool for every tool name the example uses.

Turn 1: the gateway's answer is the output, judged as any converter's.  Turn 2
(:meth:`GatewayTarget.follow_up`): the client sends the whole history back, the
calls as received and one result per call, each naming its call; the request the
gateway sends upstream must carry every call with the id the mock emitted and
each result answering its own call, and be valid ``P`` history.  A gateway that
answers with an error status or a broken stream is a target failure
(``crashes``); every exchange is recorded (:meth:`GatewayTarget.exchange`),
credentials redacted, for the counterexample.

``--workers N`` (:meth:`GatewayTarget.spread`): the gateway has one upstream,
``--upstream``, where this process's :class:`~toolwire.engines.gateway._mock_provider.Router`
takes over from its mock; each worker process builds its own copy of the target
(:class:`GatewayRecipe`) with a mock on a free loopback port, and the router
forwards each upstream request to the worker its marker names.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import dataclasses
import io
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final
from urllib.parse import urlsplit

from toolwire._extras import extra
from toolwire.engines._core._redact import redact_headers, redact_text, redact_url
from toolwire.engines.fuzzing import Target, TargetFailure, TargetRecipe
from toolwire.engines.gateway._mock_provider import (
    Conversation,
    MockProvider,
    Router,
    ThreadServer,
    body_record,
    worker_prefix,
)
from toolwire.engines.gateway._options import is_gateway, parse_headers, parse_upstream
from toolwire.errors import UsageError
from toolwire.models._wire import DONE, plain, read_frames
from toolwire.properties import Result
from toolwire.properties._text import clip
from toolwire.properties._turn import Call
from toolwire.protocols import get_protocol
from toolwire.protocols._http import face, tools_for
from toolwire.protocols._relations import Broken, Ledger, _pair, ledger, relate

with extra("gateway"):
    import httpx

__all__ = ["GatewayRecipe", "GatewayTarget", "is_gateway", "parse_headers", "parse_upstream"]

Wire = list[dict[str, Any]]
#: The model the client asks for when ``--model`` is not given.
DEFAULT_MODEL: Final = "toolwire-model"


class GatewayTarget(Target):
    """An HTTP gateway between a ``destination`` client and a ``source`` provider (the mock).

    >>> GatewayTarget("ftp://x", "openai-chat-stream", "openai-chat-stream", upstream="127.0.0.1:1")
    Traceback (most recent call last):
    toolwire.errors.UsageError: 'ftp://x' is not an http:// or https:// URL
    """

    def __init__(
        self,
        url: str,
        source: str,
        destination: str,
        *,
        upstream: str,
        model: str | None = None,
        headers: Iterable[tuple[str, str]] = (),
        verify: bool = True,
        worker: int | None = None,
    ) -> None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise UsageError(f"{url!r} is not an http:// or https:// URL")
        self.name = redact_url(url.strip())
        self.url = url.strip()
        self.source, self.destination = source, destination
        self.upward, self.downward = face(source), face(destination)
        self.model = model or DEFAULT_MODEL
        self.headers = [*headers]
        self.streamed = not get_protocol(destination).document
        #: The request protocol the gateway sends upstream (its container holds the history).
        self.history = self.upward.conversation
        self.upstream, self.verify = upstream, verify
        host, port = parse_upstream(upstream)
        #: Where the gateway sends its upstream traffic (a fan-out worker's mock listens elsewhere).
        self.address = f"{host}:{port}"
        prefix = worker_prefix(worker) if worker is not None else ""
        self.mock = MockProvider(source, self.model, prefix)
        #: What ``--upstream`` serves: the mock, or under ``--workers`` the router to the workers' mocks.
        self._serving: Any = self.mock.app
        listen = port if worker is None else 0
        self.server: ThreadServer | None = ThreadServer(self._serve, host, listen)
        if worker is None:
            self.address = f"{self.server.host}:{self.server.port}"
        self.client = httpx.Client(
            verify=verify,
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(30.0),
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
        )
        self._local = threading.local()
        atexit.register(self.close)

    async def _serve(self, scope: Any, receive: Any, send: Any) -> None:
        await self._serving(scope, receive, send)

    # -- the Target interface --------------------------------------------------------------------

    def start(self, trace: Wire, timeout: float, round_trip: bool = False) -> Callable[[], Wire]:
        """Turn 1 on a copy of ``trace``, when the output is asked for."""
        if round_trip:
            raise UsageError(
                f"{self.name}: a gateway answers as a provider; --to must be a stream or a response"
            )
        mine = copy.deepcopy(trace)
        return lambda: self._first(mine, timeout)

    def follow_up(
        self, before: Ledger, after: Ledger, timeout: float, *, strict: bool = False
    ) -> list[Broken]:
        """Turn 2: the history back through the gateway; what breaks in its upstream request (the
        rules it breaks as errors, and under ``strict`` as warnings too)."""
        state = getattr(self._local, "state", None)
        if state is None or not after.calls:
            return []
        conversation, exchange = state
        texts = [f"result of call {call.id} ({call.name})" for call in after.calls]
        history = [*self.downward.user(self._prompt(conversation)), *self.downward.answer(after.calls, texts)]
        body = self.downward.request(self.model, history, self._tools(before.calls), self.streamed)
        conversation.turn = 2
        self._send(2, body, timeout, exchange, conversation)
        sent = conversation.requests(2)
        if not sent:
            return [
                Broken(
                    "correlation",
                    "turn 2: the gateway answered the tool results without sending them upstream",
                    kind="turn-2-unsent",
                )
            ]
        items = self._items(sent[0]["body"])
        if items is None:
            container = get_protocol(self.history).container
            return [
                Broken(
                    "validity",
                    f"turn 2: the gateway's upstream request has no {container} list",
                    kind="turn-2-no-history",
                )
            ]
        pairs = _pair(before.calls, after.calls)
        owed = Ledger(
            calls=before.calls,
            results=[Result(before.calls[n].id, before.calls[n].name, texts[k]) for n, k in pairs],
        )
        try:
            upstream = ledger(items, self.history, warnings=strict)
        except Exception as exc:
            return [
                Broken(
                    "validity",
                    f"turn 2: toolwire could not read the upstream request: {exc!r}",
                    kind="turn-2-unread",
                )
            ]
        broken = relate(owed, upstream, exact_ids=True, keep=[n for n, _ in pairs], target=self.history)
        return [_turn_two(b) for b in broken]

    def exchange(self) -> dict[str, Any] | None:
        """The last example's exchange (this thread's): every leg, credentials redacted."""
        state = getattr(self._local, "state", None)
        if state is None or self.server is None:
            return None
        conversation, exchange = state
        turns = exchange["turns"]
        for turn in turns:
            turn["upstream"] = conversation.requests(turn["turn"])
        return {
            "gateway": self.name,
            "upstream": self.address,
            "model": self.model,
            "marker": conversation.marker,
            "upstream_protocol": self.history,
            "turns": turns,
        }

    @contextlib.contextmanager
    def spread(self, workers: int) -> Iterator[list[TargetRecipe]]:
        """Recipes of ``workers`` copies, each with a mock of its own; meanwhile ``--upstream``
        routes every request to the copy its marker names."""
        import multiprocessing

        if self.server is None:
            raise UsageError(f"{self.name}: the gateway target is closed")
        ports = multiprocessing.get_context("spawn").RawArray("i", workers)
        router = Router(ports)
        self._serving = router.app
        try:
            yield [
                GatewayRecipe(
                    self.name,
                    self.url,
                    self.source,
                    self.destination,
                    self.upstream,
                    self.model,
                    tuple(self.headers),
                    self.verify,
                    number,
                    ports,
                )
                for number in range(workers)
            ]
        finally:
            self._serving = self.mock.app
            router.close()

    def close(self) -> None:
        """Stop the mock provider (its port is free afterwards) and the client."""
        server, self.server = self.server, None
        if server is not None:
            server.close()
            self.client.close()

    # -- the client ------------------------------------------------------------------------------

    def _prompt(self, conversation: Conversation) -> str:
        return f"Use the tools to answer. ({conversation.marker})"

    def _tools(self, calls: list[Call]) -> list[tuple[str, dict[str, Any]]]:
        return tools_for(calls)

    def _first(self, trace: Wire, timeout: float) -> Wire:
        previous = getattr(self._local, "state", None)
        if previous is not None:
            self.mock.close(previous[0])
        conversation = self.mock.open(trace)
        exchange: dict[str, Any] = {"turns": []}
        self._local.state = (conversation, exchange)
        try:
            calls = ledger(trace, self.source).calls
        except Exception:  # an input too broken to read: the judge says what is wrong with it
            calls = []
        history = self.downward.user(self._prompt(conversation))
        body = self.downward.request(self.model, history, self._tools(calls), self.streamed)
        return self._send(1, body, timeout, exchange, conversation)

    def _send(
        self,
        turn: int,
        body: dict[str, Any],
        timeout: float,
        exchange: dict[str, Any],
        conversation: Conversation,
    ) -> Wire:
        headers = [("content-type", "application/json"), *self.headers]
        record: dict[str, Any] = {
            "turn": turn,
            "client_request": {
                "method": "POST",
                "url": self.name,
                "headers": redact_headers(headers),
                "body": {"json": body},
            },
        }
        exchange["turns"].append(record)
        deadline = time.monotonic() + timeout
        raw = bytearray()
        try:
            with self.client.stream(
                "POST", self.url, json=body, headers=headers, timeout=httpx.Timeout(timeout)
            ) as response:
                for chunk in response.iter_raw():
                    raw += chunk
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout("the deadline passed")
                status, media = response.status_code, response.headers.get("content-type", "")
                kept = redact_headers(response.headers.items())
        except httpx.TimeoutException:
            record["downstream_response"] = {"error": "timeout", "body": body_record(bytes(raw))}
            raise TargetFailure("hangs", f"turn {turn}: no complete answer within {timeout:g} s") from None
        except httpx.HTTPError as exc:
            record["downstream_response"] = {
                "error": f"{type(exc).__name__}",
                "body": body_record(bytes(raw)),
            }
            raise TargetFailure(
                "crashes",
                f"turn {turn}: the gateway broke the exchange: {type(exc).__name__}: {redact_text(str(exc))}",
            ) from None
        record["downstream_response"] = {
            "status": status,
            "headers": kept,
            "media": media,
            "body": body_record(bytes(raw), media),
        }
        if status >= 400:
            said = clip(redact_text(bytes(raw).decode(errors="replace")), 300)
            raise TargetFailure(
                "crashes",
                f"turn {turn}: the gateway answered HTTP {status}: {said}{self._refused(conversation, turn)}",
            )
        return self._read(turn, bytes(raw), conversation)

    def _refused(self, conversation: Conversation, turn: int) -> str:
        refused = [leg["refused"] for leg in conversation.requests(turn) if "refused" in leg]
        return f" (toolwire's mock provider refused its upstream request: {refused[0]})" if refused else ""

    def _read(self, turn: int, raw: bytes, conversation: Conversation) -> Wire:
        problems: list[str] = []
        destination = self.destination if turn == 1 else None
        values = [
            plain(value)
            for _, value, _ in read_frames(io.BytesIO(raw), lambda at, what: problems.append(what))
            if value is not DONE and value is not None
        ]
        if problems:
            raise TargetFailure(
                "crashes",
                f"turn {turn}: the gateway's answer is broken: {problems[0]}"
                + self._refused(conversation, turn),
            )
        if destination is not None and get_protocol(destination).document and len(values) != 1:
            raise TargetFailure("crashes", f"turn {turn}: the gateway's answer is not one JSON document")
        bad = next((n for n, v in enumerate(values) if not isinstance(v, dict)), None)
        if bad is not None:
            raise TargetFailure(
                "crashes", f"turn {turn}: event {bad} of the gateway's answer is not a JSON object"
            )
        return values

    def _items(self, body: dict[str, Any]) -> Wire | None:
        """The history list of an upstream request body, as recorded."""
        value = body.get("json")
        container = get_protocol(self.history).container
        if not isinstance(value, dict) or container is None:
            return None
        items = value.get(container)
        if isinstance(items, str):
            return [{"role": "user", "content": items}]
        if not isinstance(items, list):
            return None
        return items


@dataclasses.dataclass(frozen=True)
class GatewayRecipe(TargetRecipe):
    """A copy of a :class:`GatewayTarget` for fan-out worker ``number``: its mock listens on a
    free loopback port, written to ``ports[number]`` for the parent's router."""

    name: str
    url: str
    source: str
    destination: str
    upstream: str
    model: str
    headers: tuple[tuple[str, str], ...] = dataclasses.field(repr=False)
    verify: bool
    number: int
    ports: Any = dataclasses.field(repr=False)

    def build(self) -> GatewayTarget:
        """The copy, listening: the router forwards its examples' upstream requests to it."""
        target = GatewayTarget(
            self.url,
            self.source,
            self.destination,
            upstream=self.upstream,
            model=self.model,
            headers=self.headers,
            verify=self.verify,
            worker=self.number,
        )
        assert target.server is not None
        self.ports[self.number] = target.server.port
        return target


def _turn_two(broken: Broken) -> Broken:
    """A relation broken in turn 2, named apart from turn 1's (a rule id stays as it is)."""
    kind = broken.kind if broken.relation == "validity" else f"turn-2-{broken.kind or 'broken'}"
    return dataclasses.replace(
        broken, kind=kind, message=f"turn 2 (the gateway's upstream request): {broken.message}"
    )
