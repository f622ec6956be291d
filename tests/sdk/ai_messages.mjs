// Validates AI SDK message lists with the `ai` package's own schemas: UIMessage[] with
// safeValidateUIMessages (its zod schema of every part and tool state), ModelMessage[] with
// modelMessageSchema, message by message.
// Reads one JSON line per list, {"protocol": "aisdk-ui-messages" | "aisdk-model-messages", "messages": [...]};
// answers `null` when the list validates, else {"index": n, "error": "..."} for the first message that does not.
import { createInterface } from "node:readline";
import { modelMessageSchema, safeValidateUIMessages } from "ai";

async function check({ protocol, messages }) {
  if (protocol === "aisdk-ui-messages") {
    const result = await safeValidateUIMessages({ messages });
    if (result.success) return null;
    const cause = result.error?.cause;
    const issues = cause?.issues ?? [];
    const index = typeof issues[0]?.path?.[0] === "number" ? issues[0].path[0] : 0;
    return { index, error: String(cause?.message ?? result.error?.message ?? result.error) };
  }
  for (const [index, message] of messages.entries()) {
    const result = modelMessageSchema.safeParse(message);
    if (!result.success) return { index, error: String(result.error?.message ?? result.error) };
  }
  return null;
}

for await (const line of createInterface({ input: process.stdin })) {
  process.stdout.write(JSON.stringify(await check(JSON.parse(line))) + "\n");
}
