// Feeds an AI SDK message list to a real consumer in the installed `ai` package and says what it
// made of the tool calls (issue 38; tests/integration/test_consumer_evidence_bodies.py).
// Reads one JSON object per line on stdin: {"consumer": name, "messages": [...], ...}; answers one
// line per input: {"messages": [...]} or {"error": "..."}.  Consumers:
//   convert          convertToModelMessages(UIMessage[]): the ModelMessage[] it returns.
//   prompt:<model>   generateText({model, messages: ModelMessage[]}) with an @ai-sdk provider
//                    (openai-chat, openai-responses, anthropic): the messages of the request the
//                    provider sends (a fetch in this process catches it: nothing goes over the network).
//   add-tool-output  a Chat holding UIMessage[] whose addToolOutput({toolCallId, output}) the
//                    line's "toolCallId" and "output" give: the messages after it.
import { createInterface } from "node:readline";
import { AbstractChat, convertToModelMessages, generateText } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";

const BASE = "http://127.0.0.1:9/v1";
const MODELS = {
  "openai-chat": (fetch) => createOpenAI({ apiKey: "test", baseURL: BASE, fetch }).chat("gpt-test"),
  "openai-responses": (fetch) => createOpenAI({ apiKey: "test", baseURL: BASE, fetch }).responses("gpt-test"),
  anthropic: (fetch) => createAnthropic({ apiKey: "test", baseURL: BASE, fetch })("claude-test"),
};

async function prompt(model, messages) {
  let sent = null;
  const fetch = async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response("{}", { status: 500 });
  };
  try {
    await generateText({ model: MODELS[model](fetch), messages, maxRetries: 0 });
  } catch (error) {
    if (sent === null) throw error;
  }
  return sent.messages ?? sent.input;
}

class Chat extends AbstractChat {
  constructor(messages) {
    const state = {
      status: "ready",
      error: undefined,
      messages,
      pushMessage(message) {
        this.messages = [...this.messages, message];
      },
      popMessage() {
        this.messages = this.messages.slice(0, -1);
      },
      replaceMessage(index, message) {
        this.messages = this.messages.map((m, i) => (i === index ? message : m));
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ id: "chat", state });
  }
}

async function consume(line) {
  const { consumer, messages } = line;
  if (consumer === "convert") return await convertToModelMessages(messages);
  if (consumer.startsWith("prompt:")) return await prompt(consumer.slice("prompt:".length), messages);
  if (consumer === "add-tool-output") {
    const chat = new Chat(messages);
    await chat.addToolOutput({ tool: line.tool, toolCallId: line.toolCallId, output: line.output });
    return chat.messages;
  }
  throw new Error(`unknown consumer ${consumer}`);
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    answer = { messages: await consume(JSON.parse(line)) };
  } catch (error) {
    answer = { error: `${error?.name ?? "Error"}: ${String(error?.message ?? error)}` };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
