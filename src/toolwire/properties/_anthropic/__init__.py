"""Anthropic Messages: rules AN-1 to AN-7 and AN-10, and their monitors."""

from toolwire.properties._anthropic.monitors import ConversationMonitor, StreamMonitor
from toolwire.properties._anthropic.rules import MESSAGES, RULES, STREAM

__all__ = ["MESSAGES", "RULES", "STREAM", "ConversationMonitor", "StreamMonitor"]
