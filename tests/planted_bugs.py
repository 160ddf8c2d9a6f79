"""Deliberately broken parsers, each with one planted bug, for testing the harness.

Every factory follows the adapter contract (``factory(dialect, request) -> session``); each
is the reference parser with exactly one fault, so a test can assert that the harness blames
the right check and shows a minimal chunking.
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import replace
from typing import Any

from toolconform.harness.adapters.reference import ReferenceSession
from toolconform.reference import Dialect, ReasoningParser, Request, get_dialect, register
from toolconform.reference.dialects.hermes import HermesToolParser
from toolconform.reference.dialects.internlm import InternLMToolParser
from toolconform.reference.response_parser import ResponseParser
from toolconform.reference.tool_parser import _REJECTED


class MultiTokenThink(ReasoningParser):
    """``<think>`` / ``</think>`` as a tokenizer that spells them in three tokens would."""

    open_prefixes = ("<think", "<")
    close_prefixes = ("</think", "</")


# A test-only dialect in which ``</think>`` can be cut by a token boundary.
register(
    Dialect(
        name="test_multitoken_think",
        description="hermes tools, <think> tags that span several tokens (tests only)",
        tool_parser=HermesToolParser,
        reasoning_parser=MultiTokenThink,
    ),
    listed=False,
)


class _Wrapped:
    """The reference session, with a hook on what it returns."""

    def __init__(self, dialect: str, request: dict[str, Any]) -> None:
        self.inner = ReferenceSession(dialect, request)

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        return self.transform(self.inner.feed(text, token_ids))

    def finish(self) -> list[dict[str, Any]]:
        return self.transform(self.inner.finish())

    def transform(self, deltas: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return deltas


class _DropsTextAfterBlock(_Wrapped):
    seen_call = False

    def transform(self, deltas):
        out = []
        for delta in deltas:
            if "tool_calls" in delta:
                self.seen_call = True
            elif "content" in delta and self.seen_call:
                continue
            out.append(delta)
        return out


def drops_text_after_block(dialect, request):
    return _DropsTextAfterBlock(dialect, request)


def drops_text_after_block_by_design(dialect, request):
    """The same fault in an implementation that says how it serves its one dialect."""
    return _DropsTextAfterBlock(dialect, request)


drops_text_after_block_by_design.dialects = {"qwen3": "hermes tool parser, blocks end messages"}


class _ParserSession:
    """A session over a hand-built response parser (for faults inside the parser)."""

    def __init__(self, parser: ResponseParser) -> None:
        self.parser = parser

    def feed(self, text, token_ids=None):
        return [m.to_openai() for m, _ in self.parser.stream_chunk(text)]

    def finish(self):
        return [m.to_openai() for m, _ in self.parser.stream_chunk("", final=True)]


class _ForgetsThinkPrefixes(MultiTokenThink):
    close_prefixes = ()


def resumes_reasoning_after_block(dialect, request):
    """Not a bug: seed 000's general rule where the reference ends reasoning at a tool block
    (Kimi, GLM) — the text after a block inside reasoning stays reasoning, as LMDeploy reads
    it. An implementation-defined reading every check must accept."""
    spec = get_dialect(dialect)
    assert spec.reasoning_parser is not None and spec.reasoning_parser.tool_open_ends_reasoning
    resumes = type("Resumes", (spec.reasoning_parser,), {"tool_open_ends_reasoning": False})
    return _ParserSession(
        replace(spec, reasoning_parser=resumes).new_parser(Request.from_openai(request))
    )


def misses_split_think(dialect, request):
    """Does not hold back the start of a cut ``</think>``."""
    parser = ResponseParser(
        Request.from_openai(request),
        tool_parser=HermesToolParser,
        reasoning_parser=_ForgetsThinkPrefixes,
    )
    return _ParserSession(parser)


class _HoldsBackContent(_Wrapped):
    """Right result, released late: every content delta is kept until the stream ends."""

    held = ""

    def feed(self, text, token_ids=None):
        out = []
        for delta in self.inner.feed(text, token_ids):
            self.held += delta.pop("content", "")
            if delta:
                out.append(delta)
        return out

    def finish(self):
        held, self.held = self.held, ""
        return ([{"content": held}] if held else []) + self.inner.finish()


def holds_back_content(dialect, request):
    return _HoldsBackContent(dialect, request)


class _NameInPieces(_Wrapped):
    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = delta.get("tool_calls") or []
            named = [c for c in calls if c.get("function", {}).get("name")]
            if not named:
                out.append(delta)
                continue
            for call in calls:
                name = call.get("function", {}).get("name")
                if name and len(name) > 1:
                    head = {**call, "function": {"name": name[:2]}}
                    tail = {"index": call["index"], "function": {"name": name[2:]}}
                    out += [{"tool_calls": [head]}, {"tool_calls": [tail]}]
                else:
                    out.append({"tool_calls": [call]})
        return out


def streams_name_in_pieces(dialect, request):
    return _NameInPieces(dialect, request)


class _LeakyInternLM(InternLMToolParser):
    open_prefixes = ()


def leaks_tag_prefix(dialect, request):
    """InternLM's two-token open tag: the first token at a chunk end leaks into content."""
    return _ParserSession(ResponseParser(Request.from_openai(request), tool_parser=_LeakyInternLM))


class _SparseHermes(HermesToolParser):
    def _emit_delta(self, deltas, *, name=None, arguments=None):
        super()._emit_delta(deltas, name=name, arguments=arguments)
        if name is not None and self._output_index == _REJECTED:
            self._next_index += 1  # the rejected call still uses up an index


def sparse_indices(dialect, request):
    """Indices count filtered calls too, so they are not dense."""
    return _ParserSession(
        ResponseParser(
            Request.from_openai(request),
            tool_parser=_SparseHermes,
            reasoning_parser=ReasoningParser,
        )
    )


class _EmptyStringArguments(_Wrapped):
    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = []
            for call in delta.get("tool_calls") or []:
                if call.get("function", {}).get("arguments") == "{}":
                    call = {
                        **call,
                        "function": {k: v for k, v in call["function"].items() if k != "arguments"},
                    }
                    if len(call["function"]) == 0 and "id" not in call:
                        continue
                calls.append(call)
            if "tool_calls" in delta:
                if calls:
                    out.append({"tool_calls": calls})
            else:
                out.append(delta)
        return out


def empty_string_arguments(dialect, request):
    """A call without arguments ends with arguments '' instead of '{}'."""
    return _EmptyStringArguments(dialect, request)


class _Reparses:
    """Re-parses the whole prefix on every feed and sends only what is new: quadratic."""

    def __init__(self, dialect, request):
        self.dialect, self.request = dialect, request
        self.chunks: list[str] = []
        self.sent = 0

    def _all(self, final: bool) -> list[dict[str, Any]]:
        session = ReferenceSession(self.dialect, self.request)
        deltas = []
        for chunk in self.chunks:
            deltas += session.feed(chunk)
        if final:
            deltas += session.finish()
        return deltas

    def feed(self, text, token_ids=None):
        self.chunks.append(text)
        deltas = self._all(False)
        new, self.sent = deltas[self.sent :], len(deltas)
        return new

    def finish(self):
        deltas = self._all(True)
        return deltas[self.sent :]


def reparses_prefix(dialect, request):
    return _Reparses(dialect, request)


class _RaisesOnQuoteEnd(_Wrapped):
    def feed(self, text, token_ids=None):
        if text.endswith('"') and len(text) > 1:
            raise ValueError("unexpected end of string")
        return super().feed(text, token_ids)


def raises_on_one_chunking(dialect, request):
    """Raises when a chunk ends with a quote: only some chunkings trigger it."""
    return _RaisesOnQuoteEnd(dialect, request)


class _Hangs(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            while True:  # a parser blocked for good (a lock that is never released)
                time.sleep(0.01)
        return super().feed(text, token_ids)


def hangs(dialect, request):
    return _Hangs(dialect, request)


class _HangsOnLongOutput(_Wrapped):
    """Blocks once a response passes 400 characters: a pathological case's runs hang at
    its smallest size, so the case ends before its ladder is timed."""

    def __init__(self, dialect: str, request: dict[str, Any]) -> None:
        super().__init__(dialect, request)
        self.seen = 0

    def feed(self, text, token_ids=None):
        self.seen += len(text)
        if self.seen > 400:
            while True:
                time.sleep(0.01)
        return super().feed(text, token_ids)


def hangs_on_long_output(dialect, request):
    return _HangsOnLongOutput(dialect, request)


class _SleepsOnce(_Wrapped):
    """Off the CPU for 0.1 s in the first feed of each of its programs (a case runs three:
    ``result.seed-invariant`` starts two more), otherwise correct: a small case then ends
    in about half a second."""

    slept = False

    def feed(self, text, token_ids=None):
        if not _SleepsOnce.slept:
            _SleepsOnce.slept = True
            time.sleep(0.1)
        return super().feed(text, token_ids)


def sleeps_once(dialect, request):
    return _SleepsOnce(dialect, request)


class _WaitsInOneFeed(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            time.sleep(0.6)  # off the CPU twice the limit: what a loaded machine does to a feed
        return super().feed(text, token_ids)


def waits_in_one_feed(dialect, request):
    return _WaitsInOneFeed(dialect, request)


class _Spins(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            while True:  # a parser stuck in a loop, on the CPU
                pass
        return super().feed(text, token_ids)


def spins(dialect, request):
    return _Spins(dialect, request)


class _HangsUninterruptibly(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)  # no per-feed timer can interrupt this: the case budget must
        return super().feed(text, token_ids)


def hangs_uninterruptibly(dialect, request):
    return _HangsUninterruptibly(dialect, request)


class _Dies(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            os._exit(3)
        return super().feed(text, token_ids)


def dies(dialect, request):
    return _Dies(dialect, request)


class _Hoards(_Wrapped):
    def feed(self, text, token_ids=None):
        if "Bei" in text:
            hoard = []
            while True:
                hoard.append(bytearray(50 * 2**20))
        return super().feed(text, token_ids)


def allocates_without_bound(dialect, request):
    return _Hoards(dialect, request)


def refuses_every_session(dialect, request):
    """An adapter that cannot serve the dialect after all (e.g. no tokenizer for it)."""
    raise LookupError(f"no tokenizer for {dialect!r}")


class _RepeatsTextAfterBlock(_Wrapped):
    """Another fault on the same check as ``drops_text_after_block``: text after a block is
    sent twice instead of not at all."""

    seen_call = False

    def transform(self, deltas):
        out = []
        for delta in deltas:
            if "tool_calls" in delta:
                self.seen_call = True
            elif "content" in delta and self.seen_call:
                out.append(delta)
            out.append(delta)
        return out


def repeats_text_after_block(dialect, request):
    return _RepeatsTextAfterBlock(dialect, request)


def skips_weather(dialect, request):
    """Skips every case that offers get_weather — a way to hide from cases it would fail."""
    from toolconform.harness.adapters import SessionSkipped

    names = {tool.get("function", {}).get("name") for tool in request.get("tools") or ()}
    if "get_weather" in names:
        raise SessionSkipped("get_weather is not supported")
    return ReferenceSession(dialect, request)


class _SkipsLate(_Wrapped):
    def feed(self, text, token_ids=None):
        from toolconform.harness.adapters import SessionSkipped

        if "Bei" in text:
            raise SessionSkipped("changed its mind")
        return super().feed(text, token_ids)


def skips_after_open(dialect, request):
    """Skipping is an answer to ``open`` only: this one skips in the middle of a stream."""
    return _SkipsLate(dialect, request)


class _FreshIdPerFragment(_Wrapped):
    """A serving layer that draws a new id for every delta of a call."""

    drawn = 0

    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = []
            for call in delta.get("tool_calls") or ():
                self.drawn += 1
                calls.append({**call, "id": f"call_{self.drawn:04d}"})
            out.append({**delta, "tool_calls": calls} if calls else delta)
        return out


def fresh_id_per_fragment(dialect, request):
    return _FreshIdPerFragment(dialect, request)


class _OneIdForAll(_Wrapped):
    """Every call of the response gets the id ``call_0``: tool results go to the wrong call."""

    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = [
                {**call, "id": "call_0"} if "id" in call else call
                for call in delta.get("tool_calls") or ()
            ]
            out.append({**delta, "tool_calls": calls} if calls else delta)
        return out


def one_id_for_all_calls(dialect, request):
    return _OneIdForAll(dialect, request)


class _KeysInSetOrder(_Wrapped):
    """An arguments fragment that holds whole parameters writes them in the order of a set of
    their names, as SGLang 0.5.23's MiniMax-M2 detector streams the parameters that arrive in
    one chunk: the order is the process's string-hash draw."""

    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = []
            for call in delta.get("tool_calls") or ():
                arguments = call.get("function", {}).get("arguments")
                try:
                    value = json.loads(arguments) if arguments else None
                except json.JSONDecodeError:
                    value = None
                if isinstance(value, dict):
                    reordered = {key: value[key] for key in set(value)}
                    call = {
                        **call,
                        "function": {**call["function"], "arguments": json.dumps(reordered)},
                    }
                calls.append(call)
            out.append({**delta, "tool_calls": calls} if calls else delta)
        return out


def keys_in_set_order(dialect, request):
    return _KeysInSetOrder(dialect, request)


class _HoldsArguments(_Wrapped):
    """Streams names at once but holds every argument fragment until the stream ends (a
    parser that buffers values until the call closes)."""

    def __init__(self, dialect, request):
        super().__init__(dialect, request)
        self.held = []

    def transform(self, deltas):
        out = []
        for delta in deltas:
            calls = []
            for call in delta.get("tool_calls") or ():
                function = call.get("function") or {}
                if function.get("arguments"):
                    self.held.append(
                        {"index": call["index"], "function": {"arguments": function["arguments"]}}
                    )
                    function = {k: v for k, v in function.items() if k != "arguments"}
                    if not function and set(call) <= {"index", "function"}:
                        continue
                calls.append({**call, "function": function})
            if calls or "tool_calls" not in delta:
                out.append({**delta, "tool_calls": calls} if calls else delta)
        return out

    def finish(self):
        released = [{"tool_calls": [fragment]} for fragment in self.held]
        return self.transform(self.inner.finish()) + released


def holds_arguments_until_the_end(dialect, request):
    return _HoldsArguments(dialect, request)


class _HoldsArgumentsInSetOrder(_HoldsArguments):
    """Holds every call's arguments until the stream ends, then writes each object out in
    the order of a set of its keys: the same result for every chunking, a different one for
    each string-hash seed of its process (SGLang 0.5.23's MiniMax-M2 detector orders the
    parameters of one chunk so)."""

    def finish(self):
        last = self.transform(self.inner.finish())  # holds what the end still releases
        joined: dict[int, list[str]] = {}
        for fragment in self.held:
            joined.setdefault(fragment["index"], []).append(fragment["function"]["arguments"])
        released = []
        for index, pieces in joined.items():
            value = json.loads("".join(pieces))
            reordered = {key: value[key] for key in set(value)}
            released.append({"index": index, "function": {"arguments": json.dumps(reordered)}})
        return last + [{"tool_calls": [fragment]} for fragment in released]


def holds_arguments_in_set_order(dialect, request):
    return _HoldsArgumentsInSetOrder(dialect, request)


#: Every chunk and delta any session saw: a cache nobody evicts (memory grows per request).
_SEEN: list = []


class _Hoarder(_Wrapped):
    def feed(self, text, token_ids=None):
        deltas = super().feed(text, token_ids)
        _SEEN.append((text, [dict(delta) for delta in deltas], list(token_ids or ())))
        return deltas


def keeps_every_chunk_forever(dialect, request):
    return _Hoarder(dialect, request)


class _KeepsEveryPrefix(_Wrapped):
    """Keeps the text so far after every chunk for the whole session (a parser that keeps
    each buffer state to diff against the next): memory quadratic in the output, all of it
    freed when the session ends, so nothing is kept across responses."""

    def __init__(self, dialect, request):
        super().__init__(dialect, request)
        self.states = [""]

    def feed(self, text, token_ids=None):
        self.states.append(self.states[-1] + text)
        return super().feed(text, token_ids)


def keeps_every_prefix(dialect, request):
    return _KeepsEveryPrefix(dialect, request)


class _CopiesTheTextSoFar(_Wrapped):
    """Copies the text so far on every chunk (a snapshot kept beside the buffer, so the
    copy is never done in place): O(n²) work whose quadratic term is a memory copy — small
    beside the parsing at tens of kilobytes, and the whole cost at a megabyte."""

    def __init__(self, dialect, request):
        super().__init__(dialect, request)
        self.text = self.snapshot = ""

    def feed(self, text, token_ids=None):
        self.text = self.snapshot + text
        self.snapshot = self.text
        return super().feed(text, token_ids)


def copies_the_text_so_far(dialect, request):
    return _CopiesTheTextSoFar(dialect, request)


class _SlowButLinear(_Wrapped):
    """Spends a fixed CPU cost per character of each chunk (a thousand additions, 15–30 µs):
    linear, and slower per chunk than any linear engine parser measured (vLLM's, up to 53 µs
    per token chunk). Not a bug: one run of it takes over ``scaling.NOISE_FLOOR`` at an
    eighth of a pathological case's smallest size, which is where certify's probe looks."""

    def feed(self, text, token_ids=None):
        sum(range(SLOW_STEPS_PER_CHARACTER * len(text)))
        return super().feed(text, token_ids)


SLOW_STEPS_PER_CHARACTER = 1000


def slow_but_linear(dialect, request):
    return _SlowButLinear(dialect, request)


class _IgnoresTextWithFinish(_Wrapped):
    """Ends the stream without reading the text that came with the end: a server's finish
    path that flushes the parser but never parses the chunk carrying ``finish_reason``."""

    def finish(self, text: str = "", token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        return self.transform(self.inner.finish())


def ignores_text_with_finish(dialect, request):
    return _IgnoresTextWithFinish(dialect, request)


ignores_text_with_finish.endings = ("step", "with-last-chunk")  # type: ignore[attr-defined]


class _CutCallsAreComplete(_Wrapped):
    """Reports every stream that emitted a call as ``tool_calls``, a ``length`` cut too: the
    serving layer's unconditional override that hides a truncated call from the client
    (vLLM's streaming path before 0.33, vllm-project/vllm#9053)."""

    def finish(
        self, text: str = "", token_ids: list[int] | None = None, *, finish_reason: str = "stop"
    ) -> list[dict[str, Any]]:
        deltas = self.inner.finish(text, token_ids, finish_reason=finish_reason)
        for delta in deltas:
            if delta.get("finish_reason") == "length" and self.inner._parser.tool_emitted:
                delta["finish_reason"] = "tool_calls"
        return deltas


def cut_calls_are_complete(dialect, request):
    return _CutCallsAreComplete(dialect, request)


cut_calls_are_complete.endings = ("step", "with-last-chunk", "length")  # type: ignore[attr-defined]


class _RaisesWhenCutInACall(_Wrapped):
    """Raises on a ``length`` finish while a call is open: a finish path written for the
    ``stop`` ending only (vllm-project/vllm#37937, an IndexError when a streamed call hits
    max_tokens)."""

    def finish(
        self, text: str = "", token_ids: list[int] | None = None, *, finish_reason: str = "stop"
    ) -> list[dict[str, Any]]:
        if finish_reason == "length" and self.inner._parser.tool_emitted:
            raise IndexError("list index out of range")
        return self.inner.finish(text, token_ids, finish_reason=finish_reason)


def raises_when_cut_in_a_call(dialect, request):
    return _RaisesWhenCutInACall(dialect, request)


raises_when_cut_in_a_call.endings = ("step", "with-last-chunk", "length")  # type: ignore[attr-defined]


class _FailsOnLongOutputs(_Wrapped):
    """Raises once a response passes 20,000 characters: a fixed-size buffer, a recursion
    limit, an index that overflows. Short outputs are right; only a long one shows it."""

    def __init__(self, dialect, request):
        super().__init__(dialect, request)
        self.length = 0

    def feed(self, text, token_ids=None):
        self.length += len(text)
        if self.length > 20_000:
            raise OverflowError("the response buffer holds 20,000 characters")
        return super().feed(text, token_ids)


def fails_on_long_outputs(dialect, request):
    return _FailsOnLongOutputs(dialect, request)


class _LosesContentThenHangsOnLongOutputs(_Wrapped):
    """Drops every content delta, and once a response passes 20,000 characters hangs where
    no per-feed timer reaches it: wrong at every size, and a case that only the case's
    wall-clock limit ends."""

    def __init__(self, dialect, request):
        super().__init__(dialect, request)
        self.length = 0

    def feed(self, text, token_ids=None):
        self.length += len(text)
        if self.length > 20_000:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)
        return super().feed(text, token_ids)

    def transform(self, deltas):
        return [delta for delta in deltas if "content" not in delta]


def loses_content_then_hangs_on_long_outputs(dialect, request):
    return _LosesContentThenHangsOnLongOutputs(dialect, request)


class _LoneSurrogates(_Wrapped):
    def transform(self, deltas):
        return [
            json.loads(json.dumps(delta).replace("\\ud83d\\ude00", "\\ud83d")) for delta in deltas
        ]


def lone_surrogates(dialect, request):
    """An emoji whose JSON escapes were decoded one at a time: its high surrogate alone (a
    string that UTF-8 cannot carry)."""
    return _LoneSurrogates(dialect, request)


def reads_glimmer_as_spark(dialect, request):
    """Muse Glimmer served by the Spark profile's parser (the engines register both under
    one class with a flag): ``to=developer`` dropped, values typed by the tool's schema."""
    return ReferenceSession("muse" if dialect == "muse_glimmer" else dialect, request)
