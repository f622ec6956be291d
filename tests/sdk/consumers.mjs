// Feeds a recorded-shape stream to a real AI SDK consumer and says what it made of the tool calls.
// Reads one JSON object per line on stdin: {"consumer": name, "body": "<the SSE text>"};
// answers one line per input: {"parts": [...]}, the consumer's tool parts in order, or {"error": "..."}.
// The body is served by a fetch function in this process: nothing goes over the network.
// The `ai` consumers take a JSON array instead: "ai-stream-text" a provider's stream parts
// (LanguageModelV4), run through streamText, and "ai-read-ui-message-stream" UI message chunks;
// each also answers "tools", the tool parts of the UI message readUIMessageStream builds.
import { createInterface } from "node:readline";
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { convertToModelMessages, jsonSchema, readUIMessageStream, streamText, tool } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";

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

// Bedrock's ConverseStream is binary (an AWS event stream): its body comes base64-encoded.
function servingEvents(body) {
  return async () =>
    new Response(Buffer.from(body, "base64"), {
      status: 200,
      headers: { "content-type": "application/vnd.amazon.eventstream" },
    });
}

const MODELS = {
  "ai-sdk-openai-responses": (fetch) =>
    createOpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch }).responses("gpt-test"),
  "ai-sdk-openai-chat": (fetch) =>
    createOpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch }).chat("gpt-test"),
  "ai-sdk-anthropic": (fetch) =>
    createAnthropic({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch })("claude-test"),
  "ai-sdk-amazon-bedrock": (fetch) =>
    createAmazonBedrock({
      region: "us-east-1",
      accessKeyId: "test",
      secretAccessKey: "test",
      baseURL: "http://127.0.0.1:9",
      fetch,
    })("bedrock-test"),
};

async function consume(consumer, body) {
  const serve = consumer === "ai-sdk-amazon-bedrock" ? servingEvents : serving;
  const model = MODELS[consumer](serve(body));
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

function keep(part) {
  const kept = { type: part.type };
  for (const key of ["id", "toolCallId", "toolName", "delta", "input"]) {
    if (part[key] !== undefined) kept[key] = part[key];
  }
  if (part.type === "tool-call" && typeof kept.input !== "string") kept.input = JSON.stringify(kept.input);
  if (part.type === "error" || part.type === "tool-error") kept.error = String(part.error?.message ?? part.error);
  return kept;
}

async function uiTools(stream) {
  let last;
  const errors = [];
  for await (const message of readUIMessageStream({ stream, onError: (e) => errors.push(String(e?.message ?? e)) })) {
    last = message;
  }
  const tools = (last?.parts ?? [])
    .filter((part) => part.type.startsWith("tool-") || part.type === "dynamic-tool")
    .map((part) => ({ toolCallId: part.toolCallId, state: part.state, input: part.input ?? null }));
  // What the conversation sends back: the tool calls convertToModelMessages keeps of the message.
  let model = null;
  if (last !== undefined) {
    try {
      const messages = await convertToModelMessages([last]);
      model = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter((part) => part.type === "tool-call")
        .map((part) => part.toolCallId ?? null);
    } catch (error) {
      errors.push(`convertToModelMessages: ${String(error?.message ?? error)}`);
    }
  }
  return { tools, errors, model };
}

function textModel(parts) {
  return new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
}

const WEATHER = {
  get_weather: tool({ description: "The weather in a city.", inputSchema: jsonSchema(TOOLS[0].inputSchema) }),
};

async function consumeAi(consumer, items) {
  if (consumer === "ai-read-ui-message-stream") {
    return { parts: [], ...(await uiTools(convertArrayToReadableStream(items))) };
  }
  const run = () => streamText({ model: textModel(items), prompt: "hi", tools: WEATHER, onError: () => {} });
  const parts = [];
  for await (const part of run().fullStream) {
    if (KEEP.has(part.type) || part.type === "tool-error") parts.push(keep(part));
  }
  return { parts, ...(await uiTools(run().toUIMessageStream())) };
}

for await (const line of createInterface({ input: process.stdin })) {
  const { consumer, body } = JSON.parse(line);
  let answer;
  try {
    answer = consumer.startsWith("ai-") && !consumer.startsWith("ai-sdk-")
      ? await consumeAi(consumer, JSON.parse(body))
      : { parts: await consume(consumer, body) };
  } catch (error) {
    answer = { error: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
