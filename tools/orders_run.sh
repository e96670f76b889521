#!/usr/bin/env bash
# Every rung that orders its blocks, in every order (its own and the variants [order=S]): timed against
# cuBLAS in interleaved rounds (bench --rounds, so clock drift over the run favours none), then Nsight
# Compute's L2 numbers (tools/l2_ncu.sh) for each mma rung in row-major order (none), its own order and its
# fastest variant. On a GPU machine (after tools/devpack.sh; see tools/on-device.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/orders_run.sh OUT TAG
# writes OUT/orders_TAG.json and .txt (bench) and OUT/l2_TAG.csv (ncu). ORDERS_SIZES, ORDERS_ROUNDS and
# ORDERS_NCU_RUNGS override what is measured.
set -uo pipefail
out=$1 tag=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
bin="$root/$build/gemmscope"
sizes=${ORDERS_SIZES:-4096x16384x4096,8192x8192x8192}
rounds=${ORDERS_ROUNDS:-5}
ncu_rungs=${ORDERS_NCU_RUNGS:-mma_f16/07_swizzle mma_f16/10_multistage mma_tf32/07_swizzle mma_tf32/10_multistage}

# The ordering rungs and their order variants (the hopper rung's persistent order is not one of the schemes).
kernels=$("$bin" list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
variants = [x for x in d if x["variant_of"] and "order" in x["toggles"] and x["family"] != "hopper"]
rungs = sorted({x["variant_of"] for x in variants})
print(",".join(rungs + [x["name"] for x in variants]))')
t0=$(date +%s)
"$bin" bench --kernels "$kernels" --sizes "$sizes" --rounds "$rounds" --json "$out/orders_$tag.json" >"$out/orders_$tag.txt"
echo "bench: exit $? after $(($(date +%s) - t0)) s, $(grep -c TFLOP "$out/orders_$tag.txt" 2>/dev/null) lines"

# For each mma rung: none, its own order and its fastest variant at the first size.
picks=$(python3 - "$out/orders_$tag.json" $ncu_rungs <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
first = (res[0]["m"], res[0]["n"], res[0]["k"]) if res else None
for rung in sys.argv[2:]:
    runs = [r for r in res if (r["m"], r["n"], r["k"]) == first and r["kernel"].startswith(rung + "[order=")
            and not r["kernel"].endswith("[order=none]")]
    picks = [rung + "[order=none]", rung]
    if runs: picks.append(max(runs, key=lambda r: r["tflops"])["kernel"])
    print(" ".join(picks))
PY
)
echo "ncu on: $picks"
# shellcheck disable=SC2086  # one kernel name a word; names have no spaces
"$(dirname "$0")/l2_ncu.sh" "$out" "$tag" $picks
echo "all: $(($(date +%s) - t0)) s"
