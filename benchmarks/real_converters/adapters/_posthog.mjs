// What the PostHog adapters share: a stand-in PostHog client that records the $ai_generation event
// instead of sending it, the wait for it (the wrapper reads its half of the SDK stream's tee in the
// background and captures when that half ends), and its $ai_output_choices written as a Chat
// Completions assistant message: text and function blocks one for one (PostHog has no serializer
// back to a wire), a function block's arguments JSON-encoded where PostHog keeps them parsed.

/** A stand-in PostHog client, and the events it recorded. */
export function recorder() {
  const captured = [];
  const posthog = {
    capture: (event) => captured.push(event),
    captureImmediate: async (event) => captured.push(event),
  };
  return { posthog, captured };
}

/** The $ai_output_choices of the first event captured, once one is (an error after a second). */
export async function capturedOutput(captured) {
  for (let wait = 0; captured.length === 0 && wait < 200; wait++) await new Promise((r) => setTimeout(r, 5));
  if (captured.length === 0) throw new Error("no $ai_generation event was captured");
  return captured[0].properties.$ai_output_choices ?? [];
}

/** PostHog's [{ role, content }] output (content a string before 6.1.2) as one assistant message. */
export function assistantMessage(output) {
  const texts = [];
  const calls = [];
  for (const message of output) {
    if (typeof message.content === "string") texts.push(message.content);
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (block.type === "text") texts.push(block.text);
      else if (block.type === "function") {
        const args = block.function?.arguments;
        calls.push({
          id: block.id,
          type: "function",
          function: { name: block.function?.name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
        });
      }
    }
  }
  const message = { role: "assistant", content: texts.join("") || null };
  if (calls.length) message.tool_calls = calls;
  return message;
}
