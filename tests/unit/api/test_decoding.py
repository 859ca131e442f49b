"""The one JSON body decoder: a repeated key is found wherever it is (however the body is spaced,
whatever its strings hold), and a body without one is taken whole, as msgspec reads it."""

from __future__ import annotations

import json

import msgspec
import pytest
from litestar.exceptions import ClientException

from services.api.decoding import TOO_DEEP, decode_json_body


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (b'{"a": 1, "a": 1}', "a"),
        (b'{"a" :1 ,\n "a"\t: 2}', "a"),  # spaced out: the count is made on the compact form
        (b'{"x": {"b": [1, {"c": 1, "c": 2}]}}', "c"),  # deep in a list
        (b'[{"a": 1}, {"b": 1, "b": 1}]', "b"),
        (b'{"s": "\\":", "a": 1, "a": 2}', "a"),  # a quote and a colon in a string: read again
        (b'{"s": "\\u0022:", "t": 1, "t": 1}', "t"),  # the same quote as \u0022
        (b'{"\\u00e9": 1, "\xc3\xa9": 2}', "\u00e9"),  # one key, written two ways
        (b'{"": 1, "": 2}', ""),
    ],
)
def test_a_repeated_key_is_refused_by_its_name(body: bytes, key: str) -> None:
    with pytest.raises(ClientException) as refused:
        decode_json_body(body)
    assert refused.value.detail == f"duplicate key {key!r} in the JSON body"


@pytest.mark.parametrize(
    "body",
    [
        b'{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}',  # one name in several objects
        b'{"s": "\\":", "t": "x\\": 1, \\"y\\": 2"}',  # strings that look like keys
        b'{"s": "\\u0022:\\u0022:"}',
        b'{"a": "\\\\", "b": 1}',  # a string ending in a backslash
        b'"just a string"',
        b"12345678901234567890123456789",
        b'{"n": 4294967296, "f": 1.5e300, "u": "\xf0\x9f\x8e\xb2"}',
    ],
)
def test_a_body_without_a_repeated_key_is_read_as_msgspec_reads_it(body: bytes) -> None:
    assert decode_json_body(body) == msgspec.json.decode(body) == json.loads(body)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"", "the body is empty: a JSON object was expected"),
        (b" \n", "the body is empty: a JSON object was expected"),
        (b'{"a": "\xff"}', "the body is not valid UTF-8 (byte 0xff at offset 7)"),
        (b'{"a": "\xc3"}', "the body is not valid UTF-8 (byte 0xc3 at offset 7)"),  # cut short
        (b'{"a": ', "the body is not valid JSON: Input data was truncated"),
        (b"[" * 20_000 + b"]" * 20_000, TOO_DEEP),
    ],
    ids=["empty", "blank", "0xff", "truncated character", "truncated JSON", "too deep"],
)
def test_an_unreadable_body_is_refused_in_words(body: bytes, detail: str) -> None:
    with pytest.raises(ClientException) as refused:
        decode_json_body(body)
    assert refused.value.detail == detail
