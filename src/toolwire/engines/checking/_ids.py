"""``toolwire ids``: whether one call id is valid in each protocol, by the rules ``check`` uses.

Each protocol with a probe builds the smallest valid trace in which the id is
a call's id and its answer's; the verdict is what ``check`` finds in it.  No
id rule is restated here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from toolwire.engines.checking._check import check
from toolwire.errors import UsageError
from toolwire.properties import Finding
from toolwire.protocols import PROTOCOLS, id_shapes

__all__ = ["IdVerdict", "check_id", "id_shape", "render_ids"]


@dataclass(frozen=True, slots=True)
class IdVerdict:
    """One protocol's answer: ``valid`` when no error rule fires; the findings say why not."""

    protocol: str
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        """No error finding (warnings may remain)."""
        return not any(f.severity == "error" for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this verdict."""
        return {
            "protocol": self.protocol,
            "valid": self.valid,
            "findings": [
                {"rule": f.rule, "severity": f.severity, "message": f.message} for f in self.findings
            ],
        }


def id_shape(value: str) -> str | None:
    """Which known id shape ``value`` has, if any.

    >>> id_shape("adk-5d3f1c2a-8b7e-4f6d-9a0b-1c2d3e4f5a6b")
    "Google ADK fallback id ('adk-' + uuid4, ADK-1)"
    """
    return next((name for pattern, name in id_shapes() if pattern.fullmatch(value)), None)


def check_id(value: str, protocols: Iterable[str] | None = None) -> list[IdVerdict]:
    """Check ``value`` as a call id in each protocol (every protocol with a probe by default).

    Protocols with profiles are checked under each profile, named ``protocol[profile]``.

    >>> [(v.protocol, v.valid) for v in check_id("call_0", ["mistral-chat"])]
    [('mistral-chat[v11]', False), ('mistral-chat[v3]', False), ('mistral-chat[v13]', True)]
    """
    names = list(PROTOCOLS) if protocols is None else list(protocols)
    verdicts = []
    for name in names:
        spec = PROTOCOLS.get(name)
        if spec is None:
            raise UsageError(f"unknown protocol {name!r}; choose among: {', '.join(PROTOCOLS)}")
        if spec.probe is None:
            if protocols is not None:
                raise UsageError(f"{name} has no call ids to check; drop it from --for")
            continue
        trace = spec.probe(value)
        profiles = list(spec.profiles) if spec.shape == "conversation" and spec.profiles else [None]
        for profile in profiles:
            report = check(trace, name, profile=profile)
            label = name if profile is None else f"{name}[{profile}]"
            verdicts.append(IdVerdict(label, report.findings))
    return verdicts


def render_ids(value: str, verdicts: list[IdVerdict], fmt: str) -> str:
    """The verdicts as text or JSON."""
    if fmt == "json":
        import json

        return json.dumps(
            {"id": value, "shape": id_shape(value), "verdicts": [v.to_json() for v in verdicts]}, indent=2
        )
    shape = id_shape(value)
    lines = [f"{value!r} ({len(value)} characters)" + (f": {shape}" if shape else "")]
    width = max((len(v.protocol) for v in verdicts), default=0)
    for verdict in verdicts:
        if not verdict.findings:
            lines.append(f"  {verdict.protocol:<{width}}  ok")
            continue
        for k, finding in enumerate(verdict.findings):
            status = ("breaks" if finding.severity == "error" else "warns") if k == 0 else ""
            name = verdict.protocol if k == 0 else ""
            lines.append(f"  {name:<{width}}  {status:<6} {finding.rule}: {finding.message}")
    return "\n".join(lines)
