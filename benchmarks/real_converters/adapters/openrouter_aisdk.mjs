// OpenRouter's AI SDK provider (@openrouter/ai-sdk-provider): its chat model's doStream, the call the
// AI SDK's streamText makes, turning OpenRouter's Chat Completions stream into provider stream parts.
//
//     toolwire fuzz "node adapters/openrouter_aisdk.mjs ENV" --from openai-chat-stream --to aisdk-stream
//
// The provider is made by createOpenRouter with a fetch that answers with the generated chunks as the
// SSE body OpenRouter sends; the stream parts doStream yields are written out as they are, one a line.

import { fetchStreaming, load, readTrace, writeTrace } from "./_npm_wire.mjs";

const { createOpenRouter } = load("@openrouter/ai-sdk-provider");

const chunks = readTrace();
const openrouter = createOpenRouter({ apiKey: "sk-toolwire-benchmark", fetch: fetchStreaming(chunks) });
const model = openrouter.chat("openai/gpt-4o");
const { stream } = await model.doStream({
  prompt: [{ role: "user", content: [{ type: "text", text: "Go." }] }],
});
const parts = [];
for await (const part of stream) {
  parts.push(part.type === "error" ? { type: "error", error: String(part.error?.message ?? part.error) } : part);
}
writeTrace(parts);
