// The real `convertToModelMessages` of the installed `ai` package as a toolwire command target:
// reads UIMessage[] as JSON Lines (one message a line) on stdin and writes the ModelMessage[] it
// returns as JSON Lines on stdout.
//   toolwire fuzz "node tests/sdk/convert_to_model_messages.mjs" --from aisdk-ui-messages --to aisdk-model-messages
import { createInterface } from "node:readline";
import { convertToModelMessages } from "ai";

const messages = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) messages.push(JSON.parse(line));
}
for (const message of await convertToModelMessages(messages)) {
  process.stdout.write(JSON.stringify(message) + "\n");
}
