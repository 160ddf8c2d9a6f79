// The toolconform JSON-lines adapter protocol (docs/protocol.md) for a parser written in
// JavaScript: one request per stdin line, one reply per stdout line. A parser supplies what
// it is and a session class; `serve` answers hello, open, feed, finish, parse, run and bye.
//
//   serve({ implementation: { name, version, language: "javascript" }, dialects: ["qwen25"],
//           session: (dialect, request) => new MySession(request) })
//
// A session has feed(text) and finish(), each returning OpenAI-style deltas. `session` may
// return a string instead: the reason the dialect (or this request) is skipped.

import readline from "node:readline";

export function serve({ implementation, dialects, session }) {
  const sessions = new Map();

  function open(dialect, request) {
    if (!dialects.includes(dialect)) return `dialect ${dialect} is not implemented`;
    return session(dialect, request);
  }

  function handle(message) {
    const { id, cmd } = message;
    switch (cmd) {
      case "hello":
        return {
          id,
          ok: true,
          protocol: 1,
          implementation,
          dialects,
          output_mode: "deltas",
          capabilities: { token_ids: false, parse: true, run: true },
        };
      case "open": {
        const opened = open(message.dialect, message.request);
        if (typeof opened === "string") return { id, skipped: true, reason: opened };
        sessions.set(message.session, opened);
        return { id, ok: true };
      }
      case "feed":
        return { id, deltas: sessions.get(message.session).feed(message.text) };
      case "finish": {
        const deltas = sessions.get(message.session).finish();
        sessions.delete(message.session);
        return { id, deltas };
      }
      case "parse": {
        const parser = open(message.dialect, message.request);
        if (typeof parser === "string") return { id, error: { message: parser, kind: "protocol" } };
        return { id, message: toMessage([...parser.feed(message.text), ...parser.finish()]) };
      }
      case "run":
        return {
          id,
          results: message.chunkings.map((chunking) => {
            // outputs: false (a timed run): the count is all certify reads, so each output is
            // dropped as it comes. Kept, a round's outputs are live until it ends, and V8's
            // young-generation collections copy them again and again: the program's CPU time
            // grew as size^2.3-2.7 over one doubling of qwen25's content-full-of-angle-brackets
            // (2,000-8,000), the parser's own share of it linear.
            const keep = message.outputs !== false;
            let chunks;
            const started = process.hrtime.bigint();
            for (let round = 0; round < (message.repeat || 1); round++) {
              const parser = open(message.dialect, message.request);
              chunks = keep ? [] : 0;
              for (const text of chunking.chunks) {
                const deltas = parser.feed(text);
                if (keep) chunks.push(deltas);
                else chunks += 1;
              }
              const last = parser.finish();
              if (keep) chunks.push(last);
              else chunks += 1;
            }
            const elapsed = Number(process.hrtime.bigint() - started) / (message.repeat || 1);
            return { chunks, elapsed_ns: Math.round(elapsed) };
          }),
        };
      case "bye":
        setImmediate(() => process.exit(0));
        return { id, ok: true };
      default:
        return { id, error: { message: `unknown command ${cmd}`, kind: "protocol" } };
    }
  }

  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let reply;
    try {
      reply = handle(JSON.parse(line));
    } catch (error) {
      let id = null;
      try {
        id = JSON.parse(line).id;
      } catch {}
      const text = String(error && error.stack ? error.stack : error);
      reply = { id, error: { message: text, kind: "parser" } };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

// The deltas of one response coalesced into the message a non-streaming request returns.
function toMessage(deltas) {
  const message = { content: "", reasoning_content: null, tool_calls: [] };
  for (const delta of deltas) {
    if (delta.content) message.content += delta.content;
    for (const call of delta.tool_calls || []) {
      const entry = (message.tool_calls[call.index] ||= {
        id: call.id,
        type: "function",
        function: { name: "", arguments: "" },
      });
      if (call.function && call.function.name) entry.function.name = call.function.name;
      if (call.function && call.function.arguments) entry.function.arguments += call.function.arguments;
    }
  }
  return message;
}
