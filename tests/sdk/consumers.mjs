// Feeds a recorded-shape stream to a real AI SDK consumer and says what it made of the tool calls.
// Reads one JSON object per line on stdin: {"consumer": name, "body": "<the SSE text>"};
// answers one line per input: {"parts": [...]}, the consumer's tool parts in order, or {"error": "..."}.
// The body is served by a fetch function in this process: nothing goes over the network.
import { createInterface } from "node:readline";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";

const TOOLS = [
  {
    type: "function",
    name: "get_weather",
    description: "The weather in a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
  },
];
const PROMPT = [{ role: "user", content: [{ type: "text", text: "Weather in Paris and Lyon?" }] }];
const KEEP = new Set(["tool-input-start", "tool-input-delta", "tool-input-end", "tool-call", "error"]);

function serving(body) {
  return async () =>
    new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

const MODELS = {
  "ai-sdk-openai-responses": (fetch) =>
    createOpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch }).responses("gpt-test"),
  "ai-sdk-openai-chat": (fetch) =>
    createOpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch }).chat("gpt-test"),
  "ai-sdk-anthropic": (fetch) =>
    createAnthropic({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch })("claude-test"),
};

async function consume(consumer, body) {
  const model = MODELS[consumer](serving(body));
  const { stream } = await model.doStream({ prompt: PROMPT, tools: TOOLS });
  const parts = [];
  for await (const part of stream) {
    if (!KEEP.has(part.type)) continue;
    const kept = { type: part.type };
    for (const key of ["id", "toolCallId", "toolName", "delta", "input"]) {
      if (part[key] !== undefined) kept[key] = part[key];
    }
    if (part.type === "error") kept.error = String(part.error?.message ?? part.error);
    parts.push(kept);
  }
  return parts;
}

for await (const line of createInterface({ input: process.stdin })) {
  const { consumer, body } = JSON.parse(line);
  let answer;
  try {
    answer = { parts: await consume(consumer, body) };
  } catch (error) {
    answer = { error: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
