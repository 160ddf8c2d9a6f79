#!/usr/bin/env node
// A small hermes (Qwen2.5) tool-call parser in JavaScript, speaking the toolconform JSON-lines
// adapter protocol (docs/protocol.md; the request loop is protocol.mjs, beside it). It exists
// to prove the protocol language-neutral and to give implementers in other languages a working
// starting point:
//
//   toolconform certify --adapter "cmd:node examples/node-adapter/adapter.mjs" --dialect qwen25
//
// Format: content, then <tool_call>{"name": ..., "arguments": {...}}</tool_call> blocks. The tags
// are single tokens in the Qwen vocabulary, so they never arrive cut. Arguments are forwarded as
// the model wrote them (key order and duplicate keys kept), found by a small JSON scanner. An
// open tag followed by anything but layout and "{" (or the close tag) is prose: it stays content.
// Each call is emitted whole when its close tag arrives: arguments are not streamed (certify
// reports that as stream.progressive; examples/node-adapter/expectations.toml records it).

import { serve } from "./protocol.mjs";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
const VERSION = "0.1.0";

// The raw text of the value of `key` at the top level of a JSON object, or null.
function rawField(text, key) {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (depth === 1) {
        let j = end;
        while (j < text.length && /\s/.test(text[j])) j++;
        if (text[j] === ":" && JSON.parse(text.slice(i, end)) === key) {
          j++;
          while (j < text.length && /\s/.test(text[j])) j++;
          const valueEnd = valueEndAt(text, j);
          return valueEnd < 0 ? text.slice(j) : text.slice(j, valueEnd);
        }
      }
      i = end;
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    i++;
  }
  return null;
}

function stringEnd(text, start) {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

function valueEndAt(text, start) {
  if (text[start] === '"') return stringEnd(text, start);
  if (text[start] === "{" || text[start] === "[") {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  const match = /^[-+.\w]+/.exec(text.slice(start));
  return match ? start + match[0].length : -1;
}

// The name, when the payload's "name" string is complete.
function nameOf(payload) {
  const raw = rawField(payload, "name");
  if (raw === null || !raw.startsWith('"') || stringEnd(raw, 0) !== raw.length) return null;
  return JSON.parse(raw);
}

class HermesSession {
  constructor(request) {
    const tools = request.tools;
    const choice = request.tool_choice;
    this.allowed = null;
    if (choice && typeof choice === "object" && choice.function) {
      this.allowed = new Set([choice.function.name]);
    } else if (Array.isArray(tools)) {
      this.allowed = new Set(tools.map((t) => (t.function || t).name));
    }
    this.toolsOff = choice === "none";
    this.buffer = "";
    // Inside a block: the text already scanned, as pieces (joined once, when the block ends).
    this.scanned = [];
    this.inBlock = false;
    this.deciding = false;
    this.afterBlock = false;
    // Newlines after a block, dropped before an open tag: content again if the tag is prose.
    this.separators = "";
    this.nextIndex = 0;
  }

  feed(text) {
    this.buffer += text;
    return this.drain(false);
  }

  finish() {
    return this.drain(true);
  }

  drain(final) {
    const out = [];
    for (;;) {
      if (this.deciding) {
        // After the open tag: a payload begins with "{" (or the block is empty); a repeated
        // open tag is a stutter; anything else means the tag was mentioned in prose.
        const rest = this.buffer.replace(/^\s+/, "");
        if (rest.startsWith(OPEN)) {
          this.buffer = rest.slice(OPEN.length);
          continue;
        }
        const prefixOf = (tag) => rest.length < tag.length && tag.startsWith(rest);
        const undecided = rest === "" || prefixOf(OPEN) || prefixOf(CLOSE);
        if (undecided && !final) break;
        this.deciding = false;
        if (undecided || rest.startsWith("{") || rest.startsWith(CLOSE)) {
          this.inBlock = true;
          this.inString = false;
          this.escape = false;
        } else {
          out.push({ content: this.separators + OPEN });
        }
        this.separators = "";
        continue;
      }
      if (this.inBlock) {
        const end = this.closeTag();
        if (end < 0 && !final) break;
        const payload = this.scanned.join("") + (end < 0 ? this.buffer : this.buffer.slice(0, end));
        this.scanned = [];
        this.emitCall(payload, out);
        this.buffer = end < 0 ? "" : this.buffer.slice(end + CLOSE.length);
        this.inBlock = false;
        this.afterBlock = true;
        continue;
      }
      if (this.afterBlock) {
        // Newlines between two blocks are dropped only if another block really follows.
        const rest = this.buffer.replace(/^[\r\n]+/, "");
        if (rest.startsWith(OPEN)) {
          this.separators = this.buffer.slice(0, this.buffer.length - rest.length);
          this.buffer = rest;
        } else if (rest === "" && !final) break;
        this.afterBlock = false;
      }
      const start = this.toolsOff ? -1 : this.buffer.indexOf(OPEN);
      if (start < 0) {
        if (this.buffer) out.push({ content: this.buffer });
        this.buffer = "";
        break;
      }
      if (start > 0) out.push({ content: this.buffer.slice(0, start) });
      this.buffer = this.buffer.slice(start + OPEN.length);
      this.deciding = true;
    }
    return out;
  }

  // Where the close tag starts in the buffer, outside JSON strings. The buffer holds only what
  // has not been scanned yet: scanned text moves to `this.scanned`, so each character is looked
  // at once. (Reading characters of a string grown by `+=` makes V8 flatten it — a copy of the
  // whole block per chunk, quadratic in the block; toolconform's perf.linear caught exactly that.)
  closeTag() {
    const buffer = this.buffer;
    let i = 0;
    for (; i < buffer.length; i++) {
      const c = buffer[i];
      if (this.escape) this.escape = false;
      else if (this.inString) {
        if (c === "\\") this.escape = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"') this.inString = true;
      else if (c === "<" && buffer.startsWith(CLOSE, i)) return i;
      else if (c === "<" && CLOSE.startsWith(buffer.slice(i))) break;
    }
    if (i > 0) {
      this.scanned.push(buffer.slice(0, i));
      this.buffer = buffer.slice(i);
    }
    return -1;
  }

  emitCall(payload, out) {
    const name = nameOf(payload);
    if (name === null || (this.allowed && !this.allowed.has(name))) return;
    const index = this.nextIndex++;
    out.push({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name } }] });
    const args = rawField(payload, "arguments");
    out.push({ tool_calls: [{ index, function: { arguments: args === null ? "{}" : args } }] });
  }
}

serve({
  implementation: { name: "node-hermes-example", version: VERSION, language: "javascript" },
  dialects: ["qwen25"],
  session: (dialect, request) => new HermesSession(request),
});
