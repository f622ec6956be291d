// The provider side of the npm adapters: the input trace from stdin, the pin's own packages, and the
// generated chunks as an HTTP response that a `fetch` override answers in-process (no network).
//
// A toolwire command target reads the --from trace as JSON Lines on stdin and writes the --to trace as
// JSON on stdout. Each adapter is run as `node ADAPTER ENV`, ENV being the (project, pin) folder that
// install.py made: the packages are loaded from ENV/node_modules, so the pin decides what runs. Nothing
// here converts a tool call.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

/** The pin's folder (argv[2]); its node_modules holds the project at that release. */
export const ENV = resolve(process.argv[2] ?? process.env.TOOLWIRE_NPM_ENV ?? ".");

/** `require` as seen from the pin's folder: the project and its peers at the pinned releases. */
export const load = createRequire(join(ENV, "package.json"));

/** The input trace: one JSON value a line on stdin. */
export function readTrace() {
  return readFileSync(0, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** The chunks as a Chat Completions SSE body, ending with `data: [DONE]`. */
export function sse(chunks) {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";
}

/** Anthropic's Messages events as its SSE body: each named by its type (`event: content_block_delta`). */
export function namedSse(events) {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

/** A `fetch` that answers every request with the chunks' stream (and records the request bodies). */
export function fetchStreaming(chunks, requests = [], encode = sse) {
  const body = encode(chunks);
  return async (url, init = {}) => {
    requests.push({ url: String(url), body: init.body ? JSON.parse(init.body) : null });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

/** Write the output trace: one JSON value a line. */
export function writeTrace(values) {
  process.stdout.write(values.map((value) => JSON.stringify(value) + "\n").join(""));
}

/** A chat.completion around the converter's message (id and model from the stream). */
export function completion(chunks, message, finishReason) {
  const head = chunks[0] ?? {};
  return {
    id: head.id ?? "chatcmpl-benchmark",
    object: "chat.completion",
    created: head.created ?? 0,
    model: head.model ?? "gpt-4o",
    choices: [{ index: 0, message, finish_reason: finishReason ?? null }],
  };
}
