"""MCP: rules MCP-1 to MCP-3 and the session monitor."""

from toolwire.properties._mcp.monitors import SessionMonitor
from toolwire.properties._mcp.rules import MCP, RULES

__all__ = ["MCP", "RULES", "SessionMonitor"]
