#!/usr/bin/env node
// ds2api's own Node.js tool sieve (internal/js/helpers/stream-tool-sieve), driven as ds2api's
// Vercel stream handler (internal/js/chat-stream/vercel_stream_impl.js) drives it, behind the
// toolconform JSON-lines adapter protocol (docs/protocol.md): a real parser in another
// language, certified through the protocol. ds2api is on no package registry, so nothing of
// it is copied here: the adapter loads it from a checkout you point it at.
//
//   git clone https://github.com/CJackHwang/ds2api /path/to/ds2api
//   DS2API_DIR=/path/to/ds2api toolconform certify \
//       --adapter "cmd:node examples/ds2api-sieve/adapter.mjs" --dialect ds2api \
//       --expectations examples/ds2api-sieve/expectations.toml
//
// What the handler does with the model's text (the "text" parts of DeepSeek's stream; ds2api
// has no in-band reasoning tags, its thinking arrives as separate parts): every piece goes
// through processToolSieveChunk with the request's tool names (resolveToolcallPolicy), text
// events become content, early tool-call deltas are filtered and formatted as the handler
// does, complete calls are formatted by formatOpenAIStreamToolCalls (which also coerces the
// arguments to the tools' schemas) and the call-id store is reset after them. At the end of
// the stream the handler parses the whole output once more (parseStandaloneToolCalls) and
// sends what that finds if no complete calls were sent yet; otherwise it flushes the sieve.

import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { serve } from "../node-adapter/protocol.mjs";

const root = process.env.DS2API_DIR;
if (!root || !existsSync(path.join(root, "internal/js/helpers/stream-tool-sieve/index.js"))) {
  process.stderr.write(
    "ds2api-sieve adapter: set DS2API_DIR to a checkout of ds2api " +
      "(https://github.com/CJackHwang/ds2api) that has internal/js/helpers/stream-tool-sieve\n",
  );
  process.exit(2);
}
const require = createRequire(path.join(root, "package.json"));
const sieve = require(path.join(root, "internal/js/helpers/stream-tool-sieve"));
const policy = require(path.join(root, "internal/js/chat-stream/toolcall_policy.js"));

// ds2api's VERSION file, and the checkout's commit where it is a git clone: what was run.
function checkoutVersion() {
  const read = (file) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
  const version = read(path.join(root, "VERSION")) || "unknown";
  const head = read(path.join(root, ".git/HEAD"));
  const commit = head.startsWith("ref: ") ? read(path.join(root, ".git", head.slice(5))) : head;
  return commit ? `${version} (${commit.slice(0, 12)})` : version;
}
const VERSION = checkoutVersion();

class HandlerSession {
  constructor(request) {
    this.tools = request.tools;
    const resolved = policy.resolveToolcallPolicy(null, request.tools);
    this.toolNames = resolved.toolNames;
    this.sieveEnabled = resolved.toolSieveEnabled;
    this.earlyDeltas = resolved.emitEarlyToolDeltas;
    this.state = sieve.createToolSieveState();
    this.ids = new Map();
    this.names = new Map();
    this.outputText = "";
    this.callsDone = false;
  }

  feed(text) {
    if (!text) return [];
    this.outputText += text;
    if (!this.sieveEnabled) return [{ content: text }];
    return this.deliver(sieve.processToolSieveChunk(this.state, text, this.toolNames));
  }

  finish() {
    const detected = sieve.parseStandaloneToolCalls(this.outputText, this.toolNames);
    if (detected.length > 0 && !this.callsDone) {
      this.callsDone = true;
      return [{ tool_calls: sieve.formatOpenAIStreamToolCalls(detected, this.ids, this.tools) }];
    }
    if (!this.sieveEnabled) return [];
    return this.deliver(sieve.flushToolSieve(this.state, this.toolNames));
  }

  deliver(events) {
    const out = [];
    for (const event of events) {
      if (event.type === "tool_call_deltas") {
        if (!this.earlyDeltas) continue;
        const allowed = policy.filterIncrementalToolCallDeltasByAllowed(
          event.deltas,
          this.toolNames,
          this.names,
        );
        const formatted = policy.formatIncrementalToolCallDeltas(allowed, this.ids);
        if (formatted.length > 0) out.push({ tool_calls: formatted });
      } else if (event.type === "tool_calls") {
        this.callsDone = true;
        out.push({ tool_calls: sieve.formatOpenAIStreamToolCalls(event.calls, this.ids, this.tools) });
        policy.resetStreamToolCallState(this.ids, this.names);
      } else if (event.text) {
        out.push({ content: event.text });
      }
    }
    return out;
  }
}

serve({
  implementation: { name: "ds2api-stream-tool-sieve", version: VERSION, language: "javascript" },
  dialects: ["ds2api"],
  session: (dialect, request) => new HandlerSession(request),
});
