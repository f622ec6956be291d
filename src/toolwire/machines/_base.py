"""The base every toolwire machine derives from: checking semantics."""

from __future__ import annotations

from statemachine import StateMachine

__all__ = ["CheckingMachine"]


class CheckingMachine(StateMachine):
    """A machine that never swallows an illegal event.

    ``allow_event_without_transition=False`` makes an event with no transition
    from the current state raise ``TransitionNotAllowed``;
    ``catch_errors_as_events=False`` lets errors propagate instead of turning
    them into events.  Subclasses may list extra ``accepting`` states: states a
    complete trace may end in without being final.
    """

    allow_event_without_transition = False
    catch_errors_as_events = False
    accepting: tuple[str, ...] = ()
