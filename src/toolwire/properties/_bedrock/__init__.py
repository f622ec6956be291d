"""AWS Bedrock Converse: rules BR-1 to BR-4 and BR-9, and their monitors."""

from toolwire.properties._bedrock.monitors import ConversationMonitor, StreamMonitor, id_problem
from toolwire.properties._bedrock.rules import CONVERSE, RULES, STREAM

__all__ = ["CONVERSE", "RULES", "STREAM", "ConversationMonitor", "StreamMonitor", "id_problem"]
