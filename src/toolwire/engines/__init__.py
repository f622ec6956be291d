"""Engines around the properties: the monitor behind ``check`` and the renderers."""

from toolwire.engines._check import Problem, Report, check, check_file
from toolwire.engines._report import render_json, render_protocols, render_rules, render_text

__all__ = [
    "Problem",
    "Report",
    "check",
    "check_file",
    "render_json",
    "render_protocols",
    "render_rules",
    "render_text",
]
