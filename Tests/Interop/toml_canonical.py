#!/usr/bin/env python3
"""Reads JSON lists of TOML documents on stdin, one list a line, and answers each list with one line a
document, its canonical form (see canonical()) or "ERROR" when Python's TOML reader refuses it, then a line
"END". apnsctl's own TOML reader is held against this: both must accept and refuse the same texts and read
the same values. One process answers a whole test run (Tests/APNSTestSupport/PythonTOML.swift)."""
import json
import struct
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11: make deps installs python3-tomli
    import tomli as tomllib


def canonical(v):
    if isinstance(v, bool):
        return "b:" + ("true" if v else "false")
    if isinstance(v, int):
        return "i:%d" % v
    if isinstance(v, float):
        if v != v:
            return "f:nan"
        return "f:%d" % struct.unpack("<q", struct.pack("<d", v))[0]
    if isinstance(v, str):
        return "s:" + json.dumps(v, ensure_ascii=True)
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=True) + "=" + canonical(v[k]) for k in sorted(v)) + "}"
    return "d"  # dates and times: only their acceptance is compared


for line in sys.stdin.buffer:
    for doc in json.loads(line.decode("utf-8")):
        try:
            print(canonical(tomllib.loads(doc)))
        except Exception:
            print("ERROR")
    print("END", flush=True)
