"""A default ``fuzz --mutate`` campaign against toolwire's own repairer, for every protocol whose
damaged histories toolwire makes (issue 39, item 2): every property holds on every example, under
both policies, and the same campaign against a sanitizer that cuts the history at the first damage fails.

The repairer is a converter like any other here: the campaign feeds it generated histories, each
damaged by one of the mutators (``drop-id``, ``duplicate``, ``reorder``, ``swap-ids``,
``truncate``), and judges its output as it judges any converter's (the output protocol's rules,
and the ``intact`` relation: every call/result pair the damage left intact is kept, in order).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from toolwire.engines import fuzz
from toolwire.engines.repair import REPAIRABLE, repair
from toolwire.protocols import GENERATED, get_protocol

pytestmark = pytest.mark.slow

#: The repairable protocols whose damaged histories toolwire makes (a generator and ``intact``).
DAMAGEABLE = [p for p in REPAIRABLE if p in GENERATED and get_protocol(p).intact is not None]
POLICIES = {
    "defaults": {},
    "drop": {"orphan_results": "drop", "unanswered_calls": "drop"},
}


def _repaired(history: Any, protocol: str, **policy: Any) -> Any:
    return repair(history, protocol, **policy).history


def _deleting(history: list[Any], protocol: str) -> Any:
    """A hand-written kind of sanitizer: the history cut before the first message a repair would
    touch (some frameworks drop everything from the first inconsistency on)."""
    fixed = repair(history, protocol)
    touched = [int(c.path.split("[")[1].split("]")[0]) for c in fixed.changes if "[" in c.path]
    return history[: min(touched)] if touched else history


def test_the_damageable_repairable_protocols_are_the_ones_expected() -> None:
    assert {"openai-chat", "mistral-chat"} <= set(DAMAGEABLE)


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("protocol", DAMAGEABLE)
def test_a_default_mutate_campaign_finds_nothing_in_the_repairer(protocol: str, policy: str) -> None:
    target = functools.partial(_repaired, protocol=protocol, **POLICIES[policy])
    run = fuzz(target, protocol, protocol, max_examples=200, seed=0, mutate=True, out=None)
    assert run.exit_code == 0, [(c.finding, c.message, c.input) for c in run.counterexamples]
    assert run.examples == 200


@pytest.mark.parametrize("protocol", DAMAGEABLE)
def test_the_same_campaign_fails_a_sanitizer_that_cuts_the_history_at_the_damage(protocol: str) -> None:
    target = functools.partial(_deleting, protocol=protocol)
    run = fuzz(target, protocol, protocol, max_examples=200, seed=0, mutate=True, out=None)
    assert run.exit_code == 1
    assert run.counterexamples
