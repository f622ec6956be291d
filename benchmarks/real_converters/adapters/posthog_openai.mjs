// PostHog's LLM analytics for the openai SDK (@posthog/ai): the traced output of a streamed chat
// completion, the $ai_output_choices of the $ai_generation event its OpenAI wrapper captures.
//
//     toolwire fuzz "node adapters/posthog_openai.mjs ENV" --from openai-chat-stream --to openai-chat-response
//
// The wrapper (`new OpenAI({ posthog })` from @posthog/ai) runs a streamed chat.completions.create
// against an openai client whose fetch answers with the generated chunks; it tees the SDK's stream and
// accumulates its half into the event. A stand-in PostHog client records the event instead of sending
// it. PostHog writes the output as [{ role, content }] with text and function blocks (a string before
// 6.1.2), and has no serializer back to the wire: the adapter writes its text and its function blocks
// one for one into a chat.completion, with the stream's finish reason (PostHog keeps none).

import { completion, fetchStreaming, load, readTrace, writeTrace } from "./_npm_wire.mjs";
import { assistantMessage, capturedOutput, recorder } from "./_posthog.mjs";

// The per-provider entry point PostHog documents since 4.0.0 (it spares loading the other wrappers).
const { OpenAI } = load("@posthog/ai/openai");

const chunks = readTrace();
const { posthog, captured } = recorder();
const client = new OpenAI({
  apiKey: "sk-toolwire-benchmark",
  baseURL: "http://127.0.0.1:9/v1",
  maxRetries: 0,
  fetch: fetchStreaming(chunks),
  posthog,
});
const stream = await client.chat.completions.create({
  model: "gpt-4o",
  messages: [{ role: "user", content: "Go." }],
  stream: true,
  posthogDistinctId: "toolwire-benchmark",
});
let finishReason = null;
for await (const chunk of stream) {
  for (const choice of chunk.choices ?? []) finishReason = choice.finish_reason ?? finishReason;
}
writeTrace([completion(chunks, assistantMessage(await capturedOutput(captured)), finishReason)]);
