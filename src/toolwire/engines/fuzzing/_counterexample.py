"""Counterexamples: the minimal inputs a campaign or an exploration found, as saved and replayed.

Reading one (``toolwire diagram --counterexample``, ``toolwire replay``) imports
neither Hypothesis nor a process pool: only this module, the registry and, to
replay, the judge.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolwire import __version__
from toolwire.engines._core._files import write_file
from toolwire.errors import UsageError
from toolwire.protocols import PROTOCOLS

if TYPE_CHECKING:
    from toolwire.engines.fuzzing._judge import Outcome
    from toolwire.engines.fuzzing._targets import Target

__all__ = ["Counterexample", "file_name", "finding_id", "load_counterexample", "replay", "save", "smaller"]

Wire = list[dict[str, Any]]
#: The keys older files wrote for ``mutate``, read in this order when ``mutate`` is absent.
_OLD_MUTATE_KEYS = ("damaged", "damage", "lossy")


@dataclass(frozen=True, slots=True, kw_only=True)
class Counterexample:
    """A minimal input that breaks a property, as saved and replayed."""

    target: str
    source: str
    destination: str
    property: str
    message: str
    input: Wire
    output: Wire | None
    showing: tuple[int, ...] = ()
    quirks: str | None = None
    mutate: bool = False
    seed: int = 0
    #: How the property broke (a rule id for ``validity``); empty when the property says it all.
    kind: str = ""
    #: A gateway's whole exchange, turn by turn: the client's request, each upstream request and
    #: the mock provider's answer, the gateway's answer (credentials redacted); None for other targets.
    exchange: dict[str, Any] | None = None
    #: The quirk profiles the input cannot do without (sorted; empty: the strict wire): drawn again
    #: without any one of them, the same example no longer shows the symptom.
    cause: tuple[str, ...] = ()
    #: Found under ``--strict`` (a warning rule broken counts): replay judges it so.
    strict: bool = False

    @builtins.property
    def symptom(self) -> str:
        """What broke: its property, and how it broke (``one-to-one:lost``)."""
        return f"{self.property}:{self.kind}" if self.kind else self.property

    @builtins.property
    def finding(self) -> str:
        """The finding this counterexample shows: its symptom and its cause (:func:`finding_id`)."""
        return finding_id(self.symptom, self.cause)

    def to_json(self) -> dict[str, Any]:
        """The saved form (``toolwire replay`` reads it back)."""
        saved = {
            "toolwire": __version__,
            "target": self.target,
            "from": self.source,
            "to": self.destination,
            "property": self.property,
            "kind": self.kind,
            "finding": self.finding,
            "symptom": self.symptom,
            "cause": list(self.cause),
            "message": self.message,
            "quirks": self.quirks,
            "mutate": self.mutate,
            "seed": self.seed,
            "input": self.input,
            "output": self.output,
            "showing": list(self.showing),
        } | ({"exchange": self.exchange} if self.exchange is not None else {})
        # Absent without --strict: the files (and their names) of other runs stay as they were.
        return saved | {"strict": True} if self.strict else saved

    def key(self) -> tuple[int, int]:
        """Smaller is better: fewer input events, then less text."""
        return (len(self.input), len(json.dumps(self.input)))


def finding_id(symptom: str, cause: Iterable[str] = ()) -> str:
    """A finding's id: its symptom alone on the strict wire (``one-to-one:lost``), with the quirk
    profiles it needs after it otherwise (``one-to-one:lost [index-0]``)."""
    needs = ",".join(sorted(cause))
    return f"{symptom} [{needs}]" if needs else symptom


def smaller(found: Counterexample, than: Counterexample | None) -> bool:
    """``found`` is a better example of its finding than ``than``: smaller, ties broken by its text.

    The order is total, so that examples of one finding from several campaigns (``--workers``)
    come down to the same one in whatever order they arrive.
    """
    if than is None:
        return True
    if found.key() != than.key():
        return found.key() < than.key()
    return json.dumps(found.input, sort_keys=True) < json.dumps(than.input, sort_keys=True)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "target"


def _identity(target: str) -> str:
    """The target as one thing: a Python file by its absolute path, anything else as spelled."""
    from toolwire.engines.fuzzing._targets import PythonName, spelling

    try:
        named = spelling(target)
    except UsageError:
        return target
    if isinstance(named, PythonName) and named.where.endswith(".py"):
        return f"{Path(named.where).resolve()}:{named.name}"
    return target


def file_name(found: Counterexample) -> str:
    """The name ``found`` is saved under: target, protocol pair, finding, and a hash of it all.

    The hash covers everything saved and the target's identity (a file target by its absolute
    path): two campaigns writing into one folder (two targets of one name, two seeds, fuzz then
    explore) never overwrite each other's counterexamples.
    """
    name = f"{_slug(Path(found.target.split(':')[0]).stem + '-' + found.target.split(':')[-1])}"
    saved = found.to_json()
    del saved["toolwire"]
    text = json.dumps(saved, ensure_ascii=False, allow_nan=False, default=repr, sort_keys=True)
    identity = json.dumps([_identity(found.target), text])
    digest = hashlib.sha256(identity.encode()).hexdigest()[:10]
    return f"{name}.{found.source}.{found.destination}.{_slug(found.finding)}.{digest}.json"


def save(found: Counterexample, folder: Path) -> Path:
    """Write ``found`` as JSON under ``folder`` (named by :func:`file_name`), atomically."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(found)
    text = json.dumps(found.to_json(), indent=1, ensure_ascii=False, allow_nan=False, default=repr)
    write_file(path, (text + "\n").encode("utf-8"))
    if found.exchange is not None:
        # A gateway's exchange is also a HAR file beside it: browsers' tools and ``toolwire check`` read it.
        from toolwire.engines.proxy import har_of

        har = json.dumps(har_of(found.exchange), indent=1, ensure_ascii=False, default=repr)
        write_file(path.with_suffix(".har"), (har + "\n").encode("utf-8"))
    return path


def load_counterexample(path: str | os.PathLike[str]) -> Counterexample:
    """Read a saved counterexample; a :class:`UsageError` says what is wrong with the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text (byte {exc.start}); not a counterexample") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} line {exc.lineno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise UsageError(f"{path} is nested too deeply to be a counterexample") from None
    missing = (
        [key for key in ("from", "to", "input") if key not in data] if isinstance(data, dict) else ["all"]
    )
    if missing or not isinstance(data["input"], list):
        raise UsageError(
            f"{path} is not a toolwire counterexample (missing {', '.join(missing) or 'input list'})"
        )
    mutate_key = next((k for k in ("mutate", *_OLD_MUTATE_KEYS) if k in data), "mutate")
    expected: dict[str, type | tuple[type, ...]] = {
        "from": str, "to": str, "target": str, "property": str, "kind": str, "message": str,
        "quirks": (str, type(None)), mutate_key: bool, "seed": int, "showing": list,
        "output": (list, type(None)), "exchange": (dict, type(None)), "strict": bool,
    }  # fmt: skip
    wrong = [key for key, kind in expected.items() if key in data and not isinstance(data[key], kind)]
    wrong += [key for key in ("seed",) if isinstance(data.get(key), bool)]
    shown, cause = data.get("showing", []), data.get("cause", [])
    if not isinstance(cause, list) or not all(isinstance(name, str) for name in cause):
        wrong.append("cause")
    if wrong or not all(isinstance(n, int) and not isinstance(n, bool) for n in shown):
        raise UsageError(f"{path}: the fields {', '.join(wrong) or 'showing'} have the wrong type")
    for key in ("input", "output"):
        events = data.get(key) or []
        odd = next((n for n, event in enumerate(events) if not isinstance(event, dict)), None)
        if odd is not None:
            raise UsageError(f"{path}: {key} event {odd} is not a JSON object")
    for key in ("from", "to"):
        if data[key] not in PROTOCOLS:
            raise UsageError(f"{path}: {key} names no protocol toolwire knows: {data[key]!r}")
    return Counterexample(
        target=str(data.get("target", "")),
        source=data["from"],
        destination=data["to"],
        property=str(data.get("property", "")),
        message=str(data.get("message", "")),
        input=data["input"],
        output=data.get("output"),
        showing=tuple(shown),
        quirks=data.get("quirks"),
        mutate=bool(data.get(mutate_key, False)),
        seed=int(data.get("seed", 0)),
        kind=str(data.get("kind", "")),
        exchange=data.get("exchange"),
        # Files written before findings had causes carry none: their finding is their symptom.
        cause=tuple(sorted(cause)),
        strict=bool(data.get("strict", False)),
    )


def replay(
    path: str | os.PathLike[str], target: str | Callable[..., Any] | Target, *, timeout: float = 5.0
) -> tuple[Counterexample, Outcome]:
    """Re-run a saved counterexample's input through ``target``: the saved case and today's outcome
    (judged under ``--strict`` when the case was found so)."""
    from toolwire.engines.fuzzing._judge import judge
    from toolwire.engines.fuzzing._options import check_timeout, deviated, waiting
    from toolwire.engines.fuzzing._targets import load_target

    check_timeout(timeout)
    saved = load_counterexample(path)
    loaded = load_target(target)
    try:
        quirks = (saved.quirks or "").split(",")
        return saved, judge(
            loaded,
            saved.input,
            saved.source,
            saved.destination,
            timeout=timeout,
            mutate=saved.mutate,
            deviates=deviated(quirks),
            unanswered_optional=waiting(quirks),
            strict=saved.strict,
        )
    finally:
        if loaded is not target:
            loaded.close()
