// Feeds a recorded-shape stream to a real AI SDK consumer and says what it made of the tool calls.
// Reads one JSON object per line on stdin: {"consumer": name, "body": "<the SSE text>"};
// answers one line per input: {"parts": [...]}, the consumer's tool parts in order, or {"error": "..."}.
// The body is served by a fetch function in this process: nothing goes over the network.
// The `ai` consumers take a JSON array instead: "ai-stream-text" a provider's stream parts
// (LanguageModelV4), run through streamText, and "ai-read-ui-message-stream" UI message chunks;
// each also answers "tools", the tool parts of the UI message readUIMessageStream builds.
// "ai-full-stream" takes streamText's full stream (TextStreamPart): an experimental_transform puts
// it in place of the model's, so streamText's own result (its response messages, toUIMessageStream)
// is built from it; it also answers "steps", the tool parts of the steps its result records.
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

// How long a stream may wait for its next part before it counts as stalled: everything here is in
// memory, so seconds are generous even on a loaded machine.
const STALL_MS = 3000;

// Reads `iterable` into `take` until it ends ("ended") or waits STALL_MS for its next item ("stalled":
// a stream streamText never finishes).
async function drain(iterable, take) {
  const iterator = iterable[Symbol.asyncIterator]();
  for (;;) {
    let timer;
    const stall = new Promise((resolve) => (timer = setTimeout(() => resolve("stalled"), STALL_MS)));
    const next = await Promise.race([iterator.next(), stall]);
    clearTimeout(timer);
    if (next === "stalled") return "stalled";
    if (next.done) return "ended";
    take(next.value);
  }
}

async function uiTools(stream) {
  let last;
  const errors = [];
  const messages = readUIMessageStream({ stream, onError: (e) => errors.push(String(e?.message ?? e)) });
  if ((await drain(messages, (message) => (last = message))) === "stalled") {
    errors.push("the UI message stream never ended");
  }
  const tools = (last?.parts ?? [])
    .filter((part) => part.type.startsWith("tool-") || part.type === "dynamic-tool")
    .map((part) => ({ toolCallId: part.toolCallId, state: part.state, input: part.input ?? null }));
  // What the conversation sends back: the tool calls convertToModelMessages keeps of the message.
  // And the results it sends with them: [toolCallId, output].
  let model = null;
  let answered = null;
  if (last !== undefined) {
    try {
      const messages = await convertToModelMessages([last]);
      const content = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
      model = content.filter((part) => part.type === "tool-call").map((part) => part.toolCallId ?? null);
      answered = content.filter((part) => part.type === "tool-result")
        .map((part) => [part.toolCallId ?? null, part.output?.value ?? null]);
    } catch (error) {
      errors.push(`convertToModelMessages: ${String(error?.message ?? error)}`);
    }
  }
  return { tools, errors, model, answered };
}

function textModel(parts) {
  return new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
}

const WEATHER = {
  get_weather: tool({ description: "The weather in a city.", inputSchema: jsonSchema(TOOLS[0].inputSchema) }),
};

// Replaces the model's full stream with `items` (what a transform, or a server relaying another
// stream, hands streamText's result).
function replacing(items) {
  return () => {
    let sent = false;
    return new TransformStream({
      transform(_, controller) {
        if (!sent) for (const item of items) controller.enqueue(item);
        sent = true;
      },
    });
  };
}

const FINISHED = [
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } },
];

// A promise of the result, or "unsettled" after STALL_MS: a stream streamText never finishes.
async function settled(promise) {
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve("unsettled"), STALL_MS)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function stepTools(result) {
  try {
    const steps = await settled(result.steps);
    if (steps === "unsettled") return [["error", "steps never settled"]];
    const tools = (content) => content.filter((part) => part.type === "tool-call" || part.type === "tool-result");
    const recorded = steps.flatMap((step, n) =>
      tools(step.content).map((part) => [`${part.type} ${n + 1}`, part.toolCallId ?? null]));
    // The response messages (what onFinish saves and the next request sends), by role.
    const messages = (await result.responseMessages).flatMap((message) =>
      tools(Array.isArray(message.content) ? message.content : [])
        .map((part) => [`${part.type} in ${message.role}`, part.toolCallId ?? null]));
    return [...recorded, ...messages];
  } catch (error) {
    return [["error", String(error?.message ?? error)]];
  }
}

async function consumeAi(consumer, items) {
  if (consumer === "ai-read-ui-message-stream") {
    return { parts: [], ...(await uiTools(convertArrayToReadableStream(items))) };
  }
  const full = consumer === "ai-full-stream";
  const run = () =>
    streamText({
      model: textModel(full ? FINISHED : items),
      prompt: "hi",
      tools: WEATHER,
      onError: () => {},
      ...(full ? { experimental_transform: replacing(items) } : {}),
    });
  const parts = [];
  const first = run();
  const ended = await drain(first.fullStream, (part) => {
    if (KEEP.has(part.type) || part.type === "tool-error" || (full && part.type === "tool-result")) {
      parts.push(keep(part));
    }
  });
  if (ended === "stalled") parts.push({ type: "error", error: "the full stream never ended" });
  const steps = full ? { steps: await stepTools(first) } : {};
  return { parts, ...steps, ...(await uiTools(run().toUIMessageStream())) };
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
