#!/usr/bin/env bash
# `gemmscope list`: every registered rung, and each one's title and explanation exactly as its own file
# (kernels/<family>/NN_name.cuh, kTitle and kAdds) writes them: written once, read from there.
# usage: cli_list.sh BIN SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$bin" list --json >"$json"
python3 - "$src" "$json" <<'PY'
import glob, json, re, sys
src = sys.argv[1]
listed = {r["name"]: r for r in json.load(open(sys.argv[2]))}
def literal(text, name):
    m = re.search(r"inline constexpr const char\* " + name + r" =\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+);", text)
    return "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(1))).replace('\\"', '"') if m else None
checked = 0
for path in sorted(glob.glob(src + "/kernels/*/[0-9][0-9]_*.cuh")):
    family, stem = path.split("/")[-2], path.split("/")[-1][:-4]
    name = family + "/" + stem
    text = open(path).read()
    title, adds = literal(text, "kTitle"), literal(text, "kAdds")
    if name not in listed: sys.exit(f"FAIL: {name} has a file but `list` does not show it")
    if title is None or adds is None: sys.exit(f"FAIL: {path} has no kTitle or kAdds")
    if listed[name]["title"] != title: sys.exit(f"FAIL: {name}: list says {listed[name]['title']!r}, its file {title!r}")
    if listed[name]["adds"] != adds: sys.exit(f"FAIL: {name}: list's explanation differs from its file's kAdds")
    # Where `record` traces it: its file's kTraceShape, else at --size (null).
    m = re.search(r"kTraceShape\[3\] = \{(\d+), (\d+), (\d+)\}", text)
    want = "x".join(m.groups()) if m else None
    if listed[name]["trace_shape"] != want:
        sys.exit(f"FAIL: {name}: list says record traces it at {listed[name]['trace_shape']!r}, its file {want!r}")
    checked += 1
variants = [n for n, r in listed.items() if r["variant_of"]]
for v in variants:
    if listed[v]["variant_of"] not in listed: sys.exit(f"FAIL: variant {v} of an unlisted rung")
    if not listed[v]["toggles"]: sys.exit(f"FAIL: variant {v} names no toggle")
    if listed[v]["toggle_values"]: sys.exit(f"FAIL: variant {v} offers toggles of its own")
    # The rung names each of its variants' settings among its toggles (DESIGN: every rung "with its toggles").
    offered = listed[listed[v]["variant_of"]]["toggle_values"]
    for key, value in listed[v]["toggles"].items():
        if value not in offered.get(key, []): sys.exit(f"FAIL: {v}: its rung's toggle_values {offered} lack {key} {value}")
if listed["mma_f16/10_multistage"]["toggle_values"].get("stages") != ["2", "3"]:
    sys.exit(f"FAIL: mma_f16/10 offers stages {listed['mma_f16/10_multistage']['toggle_values']}, not 2 and 3")
if listed["mma_f16/01_vectorized"]["toggle_values"] != {}: sys.exit("FAIL: mma_f16/01 has no variants, yet offers toggles")
# Every rung that orders its blocks offers each scheme as a variant [order=S] (the launch-order issue).
ordering = ["sgemm/10_thread_tile_16x8", "wmma/08_multistage"] + [f"{f}/{r}" for f in ("mma_f16", "mma_tf32")
            for r in ("07_swizzle", "08_ldmatrix", "09_xor_permuted", "10_multistage")]
schemes = ["none"] + [f"cutlass:{l}" for l in range(5)] + [f"triton:{g}" for g in (1, 2, 4, 8, 16)]
for r in ordering:
    for s in schemes:
        v = f"{r}[order={s}]"
        if v not in listed: sys.exit(f"FAIL: {v} is not listed")
        if listed[v]["toggles"] != {"order": s}: sys.exit(f"FAIL: {v} has toggles {listed[v]['toggles']}")
        if listed[v]["title"] != listed[r]["title"]: sys.exit(f"FAIL: {v} has another title than {r}")
        if s.split(":")[0] not in listed[v]["adds"]: sys.exit(f"FAIL: {v}'s explanation does not name its scheme")
# A rung that names the one it builds on (the code view diffs against it) names an earlier rung of its family.
order = list(listed)
for n, r in listed.items():
    b = r["builds_on"]
    if b and (b not in listed or listed[b]["variant_of"] or listed[b]["family"] != r["family"]
              or order.index(b) >= order.index(n)):
        sys.exit(f"FAIL: {n} builds on {b!r}: not an earlier rung of its family")
if listed["wmma/11_ldmatrix_xor"]["builds_on"] != "wmma/09_pipelined":
    sys.exit("FAIL: wmma/11 (09's tile with hand-loaded fragments) should build on wmma/09, not on 10's warp tile")
if listed["mma_f16/13_stream_k"]["trace_shape"] != "5120x1280x4096":
    sys.exit("FAIL: mma_f16/13 (stream-K) should be traced where it splits tiles, 5120x1280x4096")
if checked + len(variants) != len(listed): sys.exit(f"FAIL: {len(listed)} listed, {checked} rung files, {len(variants)} variants")
print(f"ok: {checked} rungs and {len(variants)} variant(s) listed (each ordering rung in {len(schemes)} orders) with their own files' title and explanation")
PY
# The plain listing names every rung too, and a failed write is an error.
[ "$("$bin" list | grep -c '^[a-z_0-9]*/[0-9][0-9]_')" = "$("$bin" list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" ] ||
  { echo "FAIL: the plain listing and the JSON disagree on the number of rungs"; exit 1; }
if "$bin" list >/dev/full 2>/dev/null; then echo "FAIL: writing to a full device exited 0"; exit 1; fi
# The plain listing names a rung's toggles under it.
"$bin" list | awk '/^mma_f16\/10_multistage  /{p=1; next} /^[a-z]/{p=0} p' | tr '\n' ' ' | grep -q 'Toggles: .*; stages 2, 3;' ||
  { echo "FAIL: the plain listing does not name mma_f16/10's toggles"; exit 1; }
echo "ok: plain listing complete with the rungs' toggles; a write to /dev/full fails"
