"""Fuzzer bytes read as structure: libFuzzer's ``FuzzedDataProvider`` rules in plain Python.

The decoding of a fuzz input must be a plain function of its bytes, so that a finding made by
atheris replays, shrinks and becomes a corpus case on a machine without atheris (and under
Hypothesis, which hands out bytes too). ``ByteProvider`` reads bytes exactly as atheris'
``FuzzedDataProvider`` does for the three calls the decoder uses — integers from the end of
the buffer, byte strings from the front — and ``provider_for`` returns atheris' own (faster,
native) provider when atheris is loaded. A test holds the two to the same answers.
"""

from __future__ import annotations

import sys
from typing import Protocol


class Provider(Protocol):
    """The part of ``atheris.FuzzedDataProvider`` the decoder relies on."""

    def ConsumeIntInRange(self, low: int, high: int) -> int: ...

    def ConsumeBytes(self, count: int) -> bytes: ...

    def remaining_bytes(self) -> int: ...


class ByteProvider:
    """``FuzzedDataProvider`` semantics without atheris (the LLVM rules).

    An integer in ``[low, high]`` takes the fewest bytes that cover the range, from the end
    of the buffer, most significant first, reduced modulo the range size; an exhausted
    buffer yields ``low``. Byte strings are taken from the front.
    """

    __slots__ = ("_data", "_end", "_start")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._start = 0
        self._end = len(data)

    def ConsumeIntInRange(self, low: int, high: int) -> int:
        if low > high:
            raise ValueError(f"low={low} must not exceed high={high}")
        span = high - low
        result = 0
        offset = 0
        data = self._data
        while offset < 64 and (span >> offset) > 0 and self._end > self._start:
            self._end -= 1
            result = (result << 8) | data[self._end]
            offset += 8
        if span != (1 << 64) - 1:
            result %= span + 1
        return low + result

    def ConsumeBytes(self, count: int) -> bytes:
        count = max(0, min(count, self._end - self._start))
        piece = self._data[self._start : self._start + count]
        self._start += count
        return piece

    def remaining_bytes(self) -> int:
        return self._end - self._start


def provider_for(data: bytes) -> Provider:
    """atheris' native provider inside an atheris run, the plain one everywhere else."""
    atheris = sys.modules.get("atheris")
    if atheris is not None:
        return atheris.FuzzedDataProvider(data)
    return ByteProvider(data)


class ByteWriter:
    """The inverse of ``ByteProvider``: the bytes that make a provider return given values.

    Used to turn corpus cases into seed inputs: record the integers and byte strings the
    decoder should read, in order, and ``data()`` lays them out (strings at the front,
    integers reversed at the end).
    """

    def __init__(self) -> None:
        self._front = bytearray()
        self._back = bytearray()  # in consumption order; reversed on output

    def int_in_range(self, value: int, low: int, high: int) -> None:
        if not low <= value <= high:
            raise ValueError(f"{value} is not in [{low}, {high}]")
        span = high - low
        width = 0
        while width < 8 and (span >> (8 * width)) > 0:
            width += 1
        self._back.extend((value - low).to_bytes(width, "big") if width else b"")

    def bytes(self, piece: bytes) -> None:
        self._front.extend(piece)

    def data(self) -> bytes:
        return bytes(self._front) + bytes(reversed(self._back))
