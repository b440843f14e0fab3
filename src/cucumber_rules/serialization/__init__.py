"""JSON documents for rules, states, views, scores and records, safe against hostile input.

[`dumps`][cucumber_rules.dumps] writes one compact JSON document;
[`loads`][cucumber_rules.loads] reads it back, checks everything and
re-validates the object before returning it. The package is split by concern:

- `converter`: the cattrs converter (`make_converter`), strict, with JSON paths;
- `documents`: the envelope (`format`, `kind`), limits, `dumps` and `loads`;
- `validation`: states and records re-validated by replay, views and scores by consistency;
- `legacy`: reading format 1, written by cucumber_rules 0.1.
"""

from __future__ import annotations

from .converter import make_converter
from .documents import (
    FORMAT_VERSION,
    KINDS,
    MAX_DEPTH,
    MAX_LENGTH,
    Document,
    RulesDocumentError,
    dumps,
    loads,
)
from .format1 import Format1

__all__ = [
    "FORMAT_VERSION",
    "KINDS",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "Document",
    "Format1",
    "RulesDocumentError",
    "dumps",
    "loads",
    "make_converter",
]
