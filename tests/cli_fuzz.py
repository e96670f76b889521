#!/usr/bin/env python3
"""A capture is untrusted input: mutate the bundled one (a fixed seed, so a failure reproduces) and check
that `gemmscope shot` either draws every view or refuses the file with one line and exit 1; never a crash
(a signal), a hang (20 s) or a message of many lines.

  cli_fuzz.py GEMMSCOPE CAPTURE WORKDIR [CASES]
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from capture_json import load_json  # noqa: E402

gemmscope, capture, work = sys.argv[1], sys.argv[2], sys.argv[3]
cases = int(sys.argv[4]) if len(sys.argv) > 4 else 40
os.makedirs(work, exist_ok=True)
rng = random.Random(20261123)

base = load_json(capture)
# Keep one ladder (the default rung's), so that each case loads in a fraction of a second.
keep = lambda k: k.startswith("mma_f16/")
base["runs"] = [r for r in base["runs"] if keep(r["kernel"])]
for key in ("smem", "gmem"):
    base[key] = [x for x in base.get(key, []) if keep(x["kernel"])]
for key in ("blocks", "stages"):
    base[key] = [g for g in base[key] if keep(g["kernel"])]


def paths(node, at=()):
    """Every (path, value) in the document."""
    yield at, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, at + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:50]):  # the first elements stand for the rest
            yield from paths(v, at + (i,))


def put(doc, at, value):
    for k in at[:-1]:
        doc = doc[k]
    doc[at[-1]] = value


NUMBERS = [1e308, -1e308, 1e39, -1, 0, 2**63, -(2**63), 4.5e15, "12", None, True, [], {}]
STRINGS = ["", "x" * 3000, "\u00e9\u4e2d\U0001F600", "line\nbreak", "../../etc/passwd", 7, None]


def mutate(doc):
    items = [(p, v) for p, v in paths(doc) if p]
    p, v = rng.choice(items)
    kind = rng.randrange(5)
    if kind == 0 and isinstance(v, (int, float)) and not isinstance(v, bool):
        put(doc, p, rng.choice(NUMBERS))
    elif kind == 1 and isinstance(v, str):
        put(doc, p, rng.choice(STRINGS))
    elif kind == 2 and isinstance(v, list) and v:
        put(doc, p, v * rng.choice([0, 2, 50]))
    elif kind == 3 and isinstance(doc_at(doc, p[:-1]), dict):
        del doc_at(doc, p[:-1])[p[-1]]
    else:
        put(doc, p, rng.choice(NUMBERS + STRINGS))
    return "/".join(map(str, p))


def doc_at(doc, at):
    for k in at:
        doc = doc[k]
    return doc


failures = 0
for case in range(cases):
    doc = json.loads(json.dumps(base))
    what = [mutate(doc) for _ in range(rng.randrange(1, 4))]
    text = json.dumps(doc)
    if rng.random() < 0.15:  # a truncated file
        text = text[: rng.randrange(len(text))]
        what.append("truncated")
    path = os.path.join(work, f"case{case}.json")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(work, f"case{case}.svg")
    try:
        r = subprocess.run([gemmscope, "shot", "--replay", path, "--view", "all", "-o", out],
                           capture_output=True, text=True, timeout=20)
        rc, err = r.returncode, r.stderr.strip()
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    ok = rc == 0 or (rc == 1 and err.count("\n") == 0 and err.startswith("gemmscope shot: " + path))
    print(("ok" if ok else "FAIL") + f": case {case} ({', '.join(what)}): exit {rc} {err[:160]}")
    failures += not ok
print(f"{cases - failures} of {cases} damaged captures handled")
sys.exit(1 if failures else 0)
