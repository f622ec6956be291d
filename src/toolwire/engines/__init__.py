"""Engines around the properties: the monitor behind ``check`` and the renderers."""

from toolwire.engines._check import Problem, Report, check, check_file
from toolwire.engines._diagram import Lifecycle, lifecycle, render_diagrams, to_dot, to_mermaid
from toolwire.engines._ids import IdVerdict, check_id, id_shape, render_ids
from toolwire.engines._report import render_json, render_protocols, render_rules, render_text

__all__ = [
    "IdVerdict",
    "Lifecycle",
    "Problem",
    "Report",
    "check",
    "check_file",
    "check_id",
    "id_shape",
    "lifecycle",
    "render_diagrams",
    "render_ids",
    "render_json",
    "render_protocols",
    "render_rules",
    "render_text",
    "to_dot",
    "to_mermaid",
]
