// Validates AI SDK UI message stream chunks with the `ai` package's own zod schema.
// Reads one JSON array of chunks per line on stdin; answers one line per trace:
// `null` when every chunk validates, else {"index": n, "error": "..."} for the first that does not.
import { createInterface } from "node:readline";
import { uiMessageChunkSchema } from "ai";

const schema = uiMessageChunkSchema();

for await (const line of createInterface({ input: process.stdin })) {
  const chunks = JSON.parse(line);
  let answer = null;
  for (const [index, chunk] of chunks.entries()) {
    const result = await schema.validate(chunk);
    if (!result.success) {
      answer = { index, error: String(result.error?.message ?? result.error) };
      break;
    }
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
