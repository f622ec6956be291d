"""Mistral chat: rules MI-1 to MI-5, and the monitor with its tokenizer profiles."""

from toolwire.properties._mistral.monitors import PROFILES, ConversationMonitor, TokenizerProfile
from toolwire.properties._mistral.rules import CHAT, RULES

__all__ = ["CHAT", "PROFILES", "RULES", "ConversationMonitor", "TokenizerProfile"]
