#!/usr/bin/env python3
"""Independent verifier of the studio's per-table hash chain (docs/chain.md).

Python standard library only, written from docs/chain.md and not from the service's code, so an
auditor can read and run it without trusting the service:

    python3 tools/verify_chain.py CHAIN.ndjson [CHAIN2.ndjson ...] [--anchors ANCHORS.ndjson]
                                  [--table TABLE ...] [--now ISO]

CHAIN.ndjson is GET /audit/chain/export?tableId=<table>. ANCHORS.ndjson holds the messages of the
events topic, one Kafka message value (the event envelope) a line, e.g. from
`kcat -C -b <broker> -t studio.table-events.v1 -e -f '%s\\n'`: every round event's envelope `chain`
and every ChainCheckpoint payload is a published chain head.

Prints one line per table and exits 0 when every chain verifies and holds every published head,
1 when one does not (edited, deleted, reordered or truncated events), 2 on misuse. The tables
checked are those of the exports, and each --table given (whose export must then hold events).
"""

import hashlib
import json
import math
import re
from decimal import Decimal
import sys
from datetime import datetime, timezone

GENESIS = "0" * 64
HASH = re.compile(r"^[0-9a-f]{64}$")
SALT = re.compile(r"^[0-9a-f]{32}$")
V1_FIELDS = ("tableId", "eventNo", "roundId", "type", "visibility", "payload", "actor", "occurredAt")


# --- RFC 8785 (JSON Canonicalization Scheme) -------------------------------------------------

def es_number(value):
    """A number as ECMAScript's Number.prototype.toString writes it (RFC 8785 section 3.2.2.3)."""
    if isinstance(value, bool):
        raise TypeError("not a number")
    if isinstance(value, int) and abs(value) < 2**53:
        return str(value)
    f = float(value)
    if math.isnan(f) or math.isinf(f):
        raise ValueError("NaN and Infinity are not JSON")
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    # repr gives the shortest digits that read back as the same double, as ECMAScript does.
    _, digit_tuple, exponent = Decimal(repr(abs(f))).as_tuple()
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    n = exponent + len(digits)  # value = 0.<digits> x 10^n
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out


SHORT = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"}


def es_string(text):
    """A string as RFC 8785 section 3.2.2.2 (ECMAScript's JSON.stringify) writes it."""
    out = ['"']
    for ch in text:
        cp = ord(ch)
        if cp in SHORT:
            out.append(SHORT[cp])
        elif cp < 0x20 or 0xD800 <= cp <= 0xDFFF:  # control characters; lone surrogates
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def jcs(value):
    """RFC 8785: members sorted by their names' UTF-16 code units, no whitespace."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, list):
        return "[" + ",".join(jcs(v) for v in value) + "]"
    if isinstance(value, dict):
        names = sorted(value, key=lambda name: name.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(es_string(n) + ":" + jcs(value[n]) for n in names) + "}"
    raise TypeError("not JSON: %r" % (value,))


# --- the chain (docs/chain.md) ----------------------------------------------------------------

def hashed_text(event):
    fields = {name: event[name] for name in V1_FIELDS}
    if event["chainVersion"] == 2:
        fields["chainVersion"] = 2
        fields["salt"] = event["salt"]
    return jcs(fields)


def event_hash(prev_hash, event):
    text = prev_hash + "\n" + hashed_text(event)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Finding(Exception):
    pass


def walk(table, events):
    """Checks one table's exported events from the genesis; returns {eventNo: hash} and counts."""
    hashes = {}
    prev, version, withheld = GENESIS, 1, 0
    for expected_no, e in enumerate(events, start=1):
        where = "%s event %s" % (table, e.get("eventNo"))
        if e.get("eventNo") != expected_no:
            raise Finding("%s: expected event %d here (deleted or reordered events)" % (where, expected_no))
        v = e.get("chainVersion")
        if v not in (1, 2) or v < version:
            raise Finding("%s: chain version %r after version %d" % (where, v, version))
        if e.get("prevHash") != prev:
            raise Finding("%s: prevHash %s is not the hash of the event before it, %s" % (where, e.get("prevHash"), prev))
        if not isinstance(e.get("hash"), str) or not HASH.match(e["hash"]):
            raise Finding("%s: malformed hash" % where)
        if e.get("withheld") is True:
            if v != 2:
                raise Finding("%s: a withheld event must be of version 2" % where)
            withheld += 1
        else:
            missing = [n for n in V1_FIELDS if n not in e]
            if missing or e.get("tableId") != table:
                raise Finding("%s: missing or foreign fields %s" % (where, missing))
            if v == 2 and not (isinstance(e.get("salt"), str) and SALT.match(e["salt"])):
                raise Finding("%s: a version-2 event needs a 32-hex-digit salt" % where)
            recomputed = event_hash(prev, e)
            if recomputed != e["hash"]:
                raise Finding("%s: content hashes to %s, stored hash is %s (edited)" % (where, recomputed, e["hash"]))
        hashes[expected_no] = e["hash"]
        prev, version = e["hash"], v
    return hashes, withheld


def read_ndjson(path):
    with open(path, "r", encoding="utf-8", errors="surrogatepass") as f:
        for number, line in enumerate(f, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as error:
                    raise SystemExit("%s:%d: not JSON (%s)" % (path, number, error))


def published_heads(path):
    """Per table, every chain head the events topic published: {table: {eventNo: (hash, at)}}."""
    heads, invalid = {}, 0
    for m in read_ndjson(path):
        if not isinstance(m, dict):
            continue
        if m.get("type") == "ChainCheckpoint":
            p = m.get("payload") or {}
            head = (p.get("tableId"), p.get("eventNo"), p.get("hash"), p.get("checkpointAt"))
        elif "chain" in m:
            c = m.get("chain") or {}
            head = (m.get("tableId"), c.get("eventNo"), c.get("hash"), m.get("occurredAt"))
        else:
            continue
        table, no, h, at = head
        if not (isinstance(table, str) and isinstance(no, int) and not isinstance(no, bool) and no > 0
                and isinstance(h, str) and HASH.match(h)):
            invalid += 1
            continue
        heads.setdefault(table, {})[no] = (h, at)
    return heads, invalid


def check_anchors(table, hashes, heads):
    """Every published head must be in the chain with its hash; returns the newest (0: none)."""
    newest = 0
    end = len(hashes)
    for no in sorted(heads):
        h, at = heads[no]
        if no > end:
            raise Finding("%s: chain ends at %d but a head was published at %d (hash %s, %s): %d events missing"
                          % (table, end, no, h, at, no - end))
        if hashes[no] != h:
            raise Finding("%s: event %d has hash %s but the head published at %s says %s (rewritten)"
                          % (table, no, hashes[no], at, h))
        newest = no
    return newest


def age(events, after, now):
    later = [e for e in events[after:] if "occurredAt" in e]
    if not later:
        return ""
    oldest = datetime.fromisoformat(later[0]["occurredAt"].replace("Z", "+00:00"))
    return ", the oldest %d s old" % max(0, int((now - oldest).total_seconds()))


def main(argv):
    exports, anchors, now, expected = [], None, datetime.now(timezone.utc), set()
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--anchors" and args:
            anchors = args.pop(0)
        elif a == "--table" and args:
            expected.add(args.pop(0))
        elif a == "--now" and args:
            now = datetime.fromisoformat(args.pop(0).replace("Z", "+00:00"))
        elif a.startswith("--"):
            sys.stderr.write(__doc__)
            return 2
        else:
            exports.append(a)
    if not exports:
        sys.stderr.write(__doc__)
        return 2
    heads, invalid = published_heads(anchors) if anchors else ({}, 0)
    if invalid:
        print("WARNING %d published head(s) malformed, not trusted" % invalid)
    tables = {}
    for path in exports:
        for e in read_ndjson(path):
            tables.setdefault(e.get("tableId") if isinstance(e, dict) else None, []).append(e)
    failed = False
    for table in sorted(tables, key=str):
        events = tables[table]
        try:
            hashes, withheld = walk(table, events)
            line = "OK %s: %d event(s) chained (%d withheld: a round or shoe in play)" % (table, len(hashes), withheld)
            if anchors:
                newest = check_anchors(table, hashes, heads.get(table, {}))
                rest = len(hashes) - newest
                line += "; anchored up to %d; %d event(s) after it not anchored yet%s" % (
                    newest, rest, age(events, newest, now) if rest else "")
            print(line)
        except Finding as finding:
            failed = True
            print("FAIL " + str(finding))
    for table in sorted(expected - set(tables)):
        failed = True
        newest = max(heads.get(table, {0: None}))
        print("FAIL %s: the export holds none of its events (heads were published up to %d)" % (table, newest))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
