// PostHog's LLM analytics for the anthropic SDK (@posthog/ai): the traced output of a streamed
// Messages call, the $ai_output_choices of the $ai_generation event its Anthropic wrapper captures.
//
//     toolwire fuzz "node adapters/posthog_anthropic.mjs ENV" --from anthropic-stream --to openai-chat-response
//
// The wrapper (`new Anthropic({ posthog })` from @posthog/ai) runs messages.create({ stream: true })
// against an anthropic client whose fetch answers with the generated events as Anthropic's SSE body;
// it tees the SDK's stream and accumulates its half into the event, which a stand-in PostHog client
// records. PostHog writes the output as [{ role, content }] with text and function blocks (a string
// before 6.1.2), its own Chat-Completions-like shape, and has no serializer back to a wire: the adapter
// writes its text and its function blocks one for one into a chat.completion (a function block's
// arguments, which PostHog keeps parsed, JSON-encoded as that wire carries them), with the stream's
// stop reason mapped as Anthropic's OpenAI-compatible endpoint maps it (PostHog keeps none).

import { completion, fetchStreaming, load, namedSse, readTrace, writeTrace } from "./_npm_wire.mjs";
import { assistantMessage, capturedOutput, recorder } from "./_posthog.mjs";

// The per-provider entry point PostHog documents since 4.0.0 (it spares loading the other wrappers).
const { Anthropic } = load("@posthog/ai/anthropic");

const events = readTrace();
const { posthog, captured } = recorder();
const client = new Anthropic({
  apiKey: "sk-ant-toolwire-benchmark",
  baseURL: "http://127.0.0.1:9",
  maxRetries: 0,
  fetch: fetchStreaming(events, [], namedSse),
  posthog,
});
const stream = await client.messages.create({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [{ role: "user", content: "Go." }],
  stream: true,
  posthogDistinctId: "toolwire-benchmark",
});
let stopReason = null;
for await (const event of stream) {
  if (event.type === "message_delta") stopReason = event.delta?.stop_reason ?? stopReason;
}
const message = assistantMessage(await capturedOutput(captured));
const FINISH = { end_turn: "stop", stop_sequence: "stop", max_tokens: "length", tool_use: "tool_calls" };
const start = events.find((event) => event.type === "message_start")?.message ?? {};
const head = { id: start.id, created: 0, model: start.model };
writeTrace([completion([head], message, FINISH[stopReason] ?? stopReason)]);
