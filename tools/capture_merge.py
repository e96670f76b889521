#!/usr/bin/env python3
"""Replaces some kernels' records in a capture with those of another capture of the same GPU.

    tools/capture_merge.py [--only LISTS] BASE NEW KERNELS OUT

For each kernel named in KERNELS (comma-separated), its runs, shared and global accesses, block and stage
records and L2 rows are taken from NEW instead of BASE, list by list where NEW has them; everything else (device, peaks, layouts, the other
kernels, the live series, the price table) stays BASE's. This is how a rung added after the bundled capture was
recorded joins it without recording every rung again: record the new rung (and the one it is compared with) on a
GPU of the same name, then merge. Captures may be gzipped (.gz); OUT is gzipped when its name ends in .gz and is
written to a temporary name and renamed. Exits 1 with one line on stderr when the captures do not fit together.

--only LISTS (comma-separated, from runs, smem, gmem, blocks, stages, l2 and smem_price) takes only those lists from
NEW, so that a probe that changed what one list records does not bring new timings with it. smem_price is not per
kernel: NEW's rows of an access width BASE has no row for are added (e.g. the 2-byte loads' price). --only peaks
adds NEW's measured ceilings of a name BASE has none of (a ceiling added after BASE was recorded, such as
wgmma_f16), their source saying the day NEW measured them; BASE's own ceilings stay.

OUT keeps BASE's recorded_at and lists, in "merged", each kernel's list taken from NEW with NEW's recorded_at (or
what NEW's own "merged" says of it), so that the views date what they show by when it was recorded. A list NEW has
exactly as BASE had it keeps BASE's day.
"""
import gzip
import json
import os
import sys

KEYED = ("runs", "smem", "gmem", "blocks", "stages", "l2")  # lists whose entries name their kernel


def load(path):
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"capture_merge: {path}: {e}")


def main(argv):
    usage = "usage: tools/capture_merge.py [--only LISTS] BASE NEW KERNELS OUT"
    only = None
    if len(argv) > 2 and argv[1] == "--only":
        only = [x for x in argv[2].split(",") if x]
        unknown = [x for x in only if x not in KEYED + ("smem_price", "peaks")]
        if unknown or not only:
            sys.exit(f"capture_merge: --only takes {', '.join(KEYED + ('smem_price', 'peaks'))}; got {argv[2]!r}")
        argv = argv[:1] + argv[3:]
    if len(argv) != 5:
        sys.exit(usage)
    base_path, new_path, kernels_arg, out = argv[1:]
    base, new = load(base_path), load(new_path)
    kernels = [k for k in kernels_arg.split(",") if k]
    if not kernels:
        sys.exit("capture_merge: KERNELS names no kernel")
    for c, path in ((base, base_path), (new, new_path)):
        if c.get("schema") != "gemmscope-capture/1":
            sys.exit(f"capture_merge: {path}: not a gemmscope-capture/1 file")
    if base["device"]["name"] != new["device"]["name"]:
        sys.exit(f"capture_merge: {new_path} was recorded on {new['device']['name']}, "
                 f"{base_path} on {base['device']['name']}: a capture shows one GPU")
    for k in kernels:
        if not any(r.get("kernel") == k for r in new.get("runs", [])):
            sys.exit(f"capture_merge: {new_path} has no run of {k}")
    counts = []
    for key in KEYED:
        if only is not None and key not in only:
            continue
        # Per list and kernel: NEW's records replace BASE's where NEW has any (a table NEW lacks, such as the L2
        # rows tools/l2_ncu.sh measured, stays BASE's).
        added = [r for r in new.get(key, []) if r.get("kernel") in kernels]
        replaced = {r["kernel"] for r in added}
        # A kernel whose records NEW has exactly as BASE had them (a trace recorded again, addresses being the same
        # every time) keeps the day BASE gives them.
        same = {k for k in replaced
                if [r for r in base.get(key, []) if r.get("kernel") == k] == [r for r in added if r["kernel"] == k]}
        kept = [r for r in base.get(key, []) if r.get("kernel") not in replaced]
        if key in base or added:
            base[key] = kept + added
        counts.append(f"{key} {len(added)}")
        for k in sorted(replaced - same):
            merged = [m for m in base.get("merged", []) if (m["kernel"], m["list"]) != (k, key)]
            # NEW's own provenance of this list where it has one (NEW was itself merged), else NEW's day.
            when = max([m["recorded_at"] for m in new.get("merged", []) if (m["kernel"], m["list"]) == (k, key)]
                       + [new["recorded_at"]])
            if when[:10] != base["recorded_at"][:10]:
                merged.append({"kernel": k, "list": key, "recorded_at": when})
            base["merged"] = merged
    if only is not None and "smem_price" in only:
        have = {p["width"] for p in base.get("smem_price", [])}
        added = [p for p in new.get("smem_price", []) if p["width"] not in have]
        base["smem_price"] = base.get("smem_price", []) + added
        counts.append(f"smem_price {len(added)} rows of widths {sorted({p['width'] for p in added})}")
    if only is not None and "peaks" in only:
        have = {p["name"] for p in base.get("peaks", [])}
        added = [dict(p) for p in new.get("peaks", []) if p["name"] not in have]
        for p in added:  # BASE's day is the capture's; a ceiling measured on another day says its own
            if new["recorded_at"][:10] != base["recorded_at"][:10]:
                p["source"] = p.get("source", "") + f"; measured {new['recorded_at'][:10]}, on another day than this capture"
        base["peaks"] = base.get("peaks", []) + added
        counts.append(f"peaks {len(added)}: {', '.join(p['name'] for p in added) or 'none new'}")
    tmp = out + ".tmp"
    opener = gzip.open if out.endswith(".gz") else open
    with opener(tmp, "wt", encoding="utf-8") as f:
        json.dump(base, f, separators=(",", ":"))
    os.replace(tmp, out)
    print(f"capture_merge: {out}: {', '.join(kernels)} from {new_path} ({', '.join(counts)})")


if __name__ == "__main__":
    main(sys.argv)
