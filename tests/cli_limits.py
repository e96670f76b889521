#!/usr/bin/env python3
"""Every bad input named in issue 16, against the real binary: one line on stderr naming what is wrong, the
documented exit code, within a time bound and under a memory bound (the peak resident size of the process, from
wait4). A case that crashes (a signal), hangs, floods stderr or grows past the bound fails.

  cli_limits.py GEMMSCOPE CAPTURE WORKDIR [--seconds S] [--mb M] [--only NAME] [--table]

--table prints one row per case (name, exit, seconds, MB, message) for README's table. Under a sanitizer build
give larger bounds (ASan's shadow memory and slower code are not gemmscope's).
"""
import argparse
import json
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from capture_json import load_json  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("gemmscope")
ap.add_argument("capture")
ap.add_argument("work")
ap.add_argument("--seconds", type=float, default=5.0)
ap.add_argument("--mb", type=float, default=1024.0)
ap.add_argument("--only", default="")
ap.add_argument("--table", action="store_true")
args = ap.parse_args()
# The bound of the cases that are not refusals (the largest capture read and drawn, the window's start): their
# time is the JSON parser's and llvmpipe's on the machine at hand (see the 63 MB case).
SLOW_SECONDS = 3 * args.seconds
os.makedirs(args.work, exist_ok=True)
W = args.work
GS = args.gemmscope

# A small, valid capture to damage: the bundled one cut to one ladder (the default rung's), as cli_fuzz.py does.
full = load_json(args.capture)
keep = lambda k: k.startswith("mma_f16/")
base = dict(full)
base["runs"] = [r for r in full["runs"] if keep(r["kernel"])]
for key in ("smem", "gmem"):
    base[key] = [x for x in full.get(key, []) if keep(x["kernel"])]
for key in ("blocks", "stages"):
    base[key] = [g for g in full[key] if keep(g["kernel"])]
base.pop("series", None)
del full


def capture(name, edit=None, text=None):
    """Writes a damaged capture (edit(doc) changes a copy of the base, or text is the whole file)."""
    path = os.path.join(W, name)
    if text is None:
        doc = json.loads(json.dumps(base))
        edit(doc)
        text = json.dumps(doc)
    with open(path, "w") as f:
        f.write(text)
    return path


# The process is started by a small launcher (a fresh python -S): a child forked straight from this script would
# count this script's own memory (the bundled capture it loaded) in its peak, since Linux keeps the peak across
# fork and exec. The launcher reports the child's peak from wait4.
LAUNCH = r"""
import os, resource, sys
out = os.open(sys.argv[1], os.O_WRONLY)
fsize = int(sys.argv[2])
pid = os.fork()
if pid == 0:
    os.dup2(out, 1)
    if fsize:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    os.execv(sys.argv[3], sys.argv[3:])
_, status, ru = os.wait4(pid, 0)
code = ("signal %d" % os.WTERMSIG(status)) if os.WIFSIGNALED(status) else str(os.WEXITSTATUS(status))
print(code + "," + str(ru.ru_maxrss), flush=True)
"""


def run(argv, stdin=None, stdout="/dev/null", fsize=0, seconds=None):
    """(exit code or 'timeout' or 'signal N', stderr, seconds, peak MB)."""
    err = tempfile.TemporaryFile()
    fin = stdin if stdin is not None else subprocess.DEVNULL
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-S", "-c", LAUNCH, stdout, str(fsize), GS] + argv, stdin=fin, stdout=subprocess.PIPE,
                         stderr=err, start_new_session=True)
    try:
        report, _ = p.communicate(timeout=seconds or args.seconds)
        rc, kb = report.decode().strip().split(",")
        rc = int(rc) if rc.isdigit() else rc
        mb = int(kb) / 1024.0
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        rc, mb = "timeout", 0.0
    secs = time.monotonic() - t0
    err.seek(0)
    text = err.read(1 << 20).decode("utf-8", "replace")
    return rc, text, secs, mb


cases = []  # (name, argv, expected exit, regex the one line must match, stdin opener or None); exit 0 with a regex:
# the one line is said and the program goes on


def case(name, argv, code, pattern, stdin=None, max_len=250, fsize=0, seconds=None):
    """seconds: this case's own time bound, where it is not the --seconds every refusal must meet."""
    cases.append((name, argv, code, pattern, stdin, max_len, fsize, seconds))


out_svg = os.path.join(W, "x.svg")
out_png = os.path.join(W, "x.png")

# ---- Damaged captures: each refused by the reader with the file, the field path and the problem. --------------
def set_run(field, value):
    return lambda d: d["runs"][0].__setitem__(field, value)


big = capture("1e400.json", text=json.dumps(base).replace('"tflops": ', '"tflops": 1e400, "x": ', 1))
case("number 1e400, shot perf", ["shot", "--view", "perf", "--replay", big, "-o", out_svg], 1,
     r"1e400\.json: .*(number|range)")
# The window says the same line and stays up on the bundled capture (exit 0 once its frames are drawn).
case("number 1e400, window", ["--replay", big, "--headless", "--frames", "1"], 0,
     r"1e400\.json: .*; showing the bundled capture instead$")
huge = capture("tflops_1e39.json", set_run("tflops", 1e39))
case("TFLOP/s 1e39, shot perf", ["shot", "--view", "perf", "--replay", huge, "-o", out_png], 1,
     r"tflops_1e39\.json: runs\[0\]\.tflops: ")
case("TFLOP/s 1e39, shot all", ["shot", "--view", "all", "--replay", huge, "-o", out_svg], 1,
     r"tflops_1e39\.json: runs\[0\]\.tflops: ")
hugec = capture("cublas_1e39.json", set_run("cublas_tflops", 1e39))
case("cuBLAS TFLOP/s 1e39, shot perf", ["shot", "--view", "perf", "--replay", hugec, "-o", out_svg], 1,
     r"cublas_1e39\.json: runs\[0\]\.cublas_tflops: ")
neg = capture("ms_negative.json", set_run("median_ms", -3.0))
case("negative median ms", ["shot", "--view", "perf", "--replay", neg, "-o", out_svg], 1,
     r"ms_negative\.json: runs\[0\]\.median_ms: ")
TEN_MB = "x" * (10 << 20)
devname = capture("device_10mb.json", lambda d: d["device"].__setitem__("name", TEN_MB))
case("10 MB device name, shot all", ["shot", "--view", "all", "--replay", devname, "-o", out_svg], 1,
     r"device_10mb\.json: device\.name: ")
case("10 MB device name, window", ["--replay", devname, "--headless", "--frames", "1"], 0,
     r"device_10mb\.json: device\.name: .*; showing the bundled capture instead$")
kname = capture("kernel_10mb.json", lambda d: d["runs"][0].__setitem__("kernel", TEN_MB))
case("10 MB kernel name", ["shot", "--view", "perf", "--replay", kname, "-o", out_svg], 1,
     r"kernel_10mb\.json: runs\[0\]\.kernel: ")
site = capture("site_10mb.json", lambda d: d["smem"][0].__setitem__("site", TEN_MB))
case("10 MB site name", ["shot", "--view", "banks", "--replay", site, "-o", out_svg], 1,
     r"site_10mb\.json: smem\[0\]\.site: ")
stage = capture("stage_10mb.json", lambda d: d["stages"][0]["records"][0].__setitem__(2, TEN_MB))
case("10 MB stage name", ["shot", "--view", "timeline", "--replay", stage, "-o", out_svg], 1,
     r"stage_10mb\.json: stages\[0\]\.records\[0\]")
schema = capture("schema_5kb.json", text=json.dumps({"schema": "s" * 5000}))
case("5 KB unknown schema", ["shot", "--view", "perf", "--replay", schema, "-o", out_svg], 1,
     r"schema_5kb\.json: schema: 5000 characters", max_len=200)
# A block list (the traced shared-memory accesses, then the block records) repeated a thousand times: refused, as
# more records of one kernel than a view can draw in time; at the most a kernel may have, drawn within the bounds.
smem1000 = capture("smem_x1000.json", lambda d: d.__setitem__("smem", d["smem"][:64] * 1000))
case("smem list x1000, shot banks", ["shot", "--view", "banks", "--replay", smem1000, "-o", out_svg], 1,
     r"smem_x1000\.json: smem\[\d+\]: more than 4096 shared-memory accesses of kernel")
sel = "mma_f16/01_vectorized"  # the default rung, which the views show


def more_blocks(times):
    def edit(d):
        g = next(g for g in d["blocks"] if g["kernel"] == sel)
        g["records"] = (g["records"] * times)[: 65536 * 2]
    return edit


blocks1000 = capture("blocks_x1000.json", more_blocks(1000))
case("block records x1000, shot swizzle", ["shot", "--view", "swizzle", "--replay", blocks1000, "-o", out_svg], 1,
     r"blocks_x1000\.json: blocks\[\d+\]\.records\[65536\]: more than 65536 block records of kernel")
most = capture("blocks_65536.json", lambda d: (more_blocks(1000)(d), next(
    g for g in d["blocks"] if g["kernel"] == sel)["records"].__delitem__(slice(65536, None))))
case("65536 block records, shot swizzle", ["shot", "--view", "swizzle", "--replay", most, "-o", out_svg], 0, None)
case("65536 block records, shot all", ["shot", "--view", "all", "--replay", most, "-o", out_png], 0, None)
deep = capture("deep_80000.json", text="[" * 80000 + "]" * 80000)
case("80,000-deep nesting", ["shot", "--view", "perf", "--replay", deep, "-o", out_svg], 1,
     r"deep_80000\.json: nested deeper than 32 levels")
deepo = capture("deep_obj.json", text='{"schema": ' + '{"a": ' * 80000 + "1" + "}" * 80000 + "}")
case("80,000-deep objects", ["shot", "--view", "perf", "--replay", deepo, "-o", out_svg], 1,
     r"deep_obj\.json: nested deeper than 32 levels")
# Many keys in one object: the reader keeps keys in order and finds each by a linear search, so 160,000 keys (2 MB)
# took 25 s before the limit; refused at once, wherever the object is.
keys = capture("keys_160000.json", text='{"schema": "gemmscope-capture/1", ' +
               ",".join(f'"k{i}": 0' for i in range(160000)) + "}")
case("160,000 keys in one object", ["shot", "--view", "perf", "--replay", keys, "-o", out_svg], 1,
     r"keys_160000\.json: more than 1024 keys in one JSON object")
devkeys = capture("device_keys.json", lambda d: d["device"].update({f"k{i}": 0 for i in range(80000)}))
case("80,000 keys in device", ["shot", "--view", "perf", "--replay", devkeys, "-o", out_svg], 1,
     r"device_keys\.json: more than 1024 keys in one JSON object")
# A kernel this build does not have, run in a capture (recorded by another build): drawn, as the window does; one
# in neither is refused naming the file it is not in.
unknown = capture("unknown_kernel.json", lambda d: d["runs"][0].__setitem__("kernel", "sgemm/99_magic"))
case("kernel only in the capture", ["shot", "--view", "perf", "--kernel", "sgemm/99_magic", "--replay", unknown,
                                    "-o", out_svg], 0, None)
case("kernel in neither", ["shot", "--view", "perf", "--kernel", "sgemm/98_other", "--replay", unknown, "-o", out_svg], 2,
     r"unknown kernel 'sgemm/98_other': .*; .*unknown_kernel\.json has no runs of it either$")
case("kernel in neither, window", ["--kernel", "sgemm/98_other", "--replay", unknown, "--headless", "--frames", "1"], 2,
     r"unknown kernel 'sgemm/98_other': .*; .*unknown_kernel\.json has no runs of it either$")
lane = capture("lane_99.json", lambda d: d["layouts"][0]["cells"][0].__setitem__(0, 99))
case("lane 99 in a layout", ["shot", "--view", "layout", "--replay", lane, "-o", out_svg], 1,
     r"lane_99\.json: layouts\[0\]\.cells\[0\]\[0\] \(lane\)")
smid = capture("smid_over.json", lambda d: d["blocks"][0]["records"][0].__setitem__(5, d["device"]["sm_count"]))
case("SM id past the device's", ["shot", "--view", "swizzle", "--replay", smid, "-o", out_svg], 1,
     r"smid_over\.json: blocks\[0\]\.records\[0\]\[5\] \(smid\)")
trunc = capture("truncated.json", text=json.dumps(base)[:100000])
case("truncated capture", ["shot", "--view", "perf", "--replay", trunc, "-o", out_svg], 1,
     r"truncated\.json: not valid JSON")
nl = capture("new\nline.json", text="{")
case("newline in a capture's name", ["shot", "--view", "perf", "--replay", nl, "-o", out_svg], 1,
     r"new\\nline\.json: not valid JSON")

# ---- What is not a capture at all. ------------------------------------------------------------------------------
case("--replay /dev/zero", ["--replay", "/dev/zero", "--headless", "--frames", "1"], 0,
     r"/dev/zero: not a regular file; showing the bundled capture instead$")
case("shot --replay /dev/zero", ["shot", "--view", "perf", "--replay", "/dev/zero", "-o", out_svg], 1,
     r"/dev/zero: not a regular file")
fifo = os.path.join(W, "fifo")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
case("FIFO with no writer", ["shot", "--view", "perf", "--replay", fifo, "-o", out_svg], 1, r"fifo: not a regular file")
case("a folder as capture", ["shot", "--view", "perf", "--replay", W, "-o", out_svg], 1, r"not a regular file")
sparse = os.path.join(W, "500mb.json")
with open(sparse, "w") as f:  # sparse: no disk used, refused by its size before a byte is read
    f.truncate(500 << 20)
case("500 MB capture", ["shot", "--view", "perf", "--replay", sparse, "-o", out_svg], 1, r"500mb\.json: 500 MB, larger than the 64 MB")
# The largest captures the reader takes in, just under its 64 MB: block records (the bulk of a real capture), and
# the JSON that costs the most memory per byte (empty arrays). Read or refused within the bounds, never built
# into several times their size.
rec = json.dumps(base["blocks"][0]["records"][0])
head = json.dumps({k: v for k, v in base.items() if k != "blocks"})[:-1]
n = (63_000_000 - len(head)) // (len(rec) + 1)
group = ',\n'.join([rec] * 65536)
groups = ['{"kernel": "%s", "fields": %s, "records": [%s]}' % (
    sel if i == 0 else f"other/{i:02d}", json.dumps(base["blocks"][0]["fields"]), group) for i in range(n // 65536)]
near = capture("blocks_63mb.json", text=head + ', "blocks": [' + ",".join(groups) + "]}")
# Not a refusal but the largest capture gemmscope reads, parsed and drawn: its time is the JSON parser's on this
# machine (3.0 s on 2026-11-26, 6.1 s on the same kind of 2-core machine a day later, when Python's own json module
# took 3.4 s for it), so it gets three times the bound of a refusal; a hang or a quadratic reader takes far longer.
case("63 MB capture of block records", ["shot", "--view", "swizzle", "--replay", near, "-o", out_svg], 0, None,
     seconds=SLOW_SECONDS)
empties = capture("empties_60mb.json", text=head + ', "pad": [' + ",".join(["[]"] * 20_000_000) + "]}")
case("60 MB of empty arrays", ["shot", "--view", "perf", "--replay", empties, "-o", out_svg], 1,
     r"empties_60mb\.json: more than 4 million JSON arrays and objects")
zeros = capture("zeros_60mb.json", text=head + ', "pad": [' + ",".join(["0"] * 30_000_000) + "]}")
case("60 MB of numbers", ["shot", "--view", "perf", "--replay", zeros, "-o", out_svg], 1,
     r"zeros_60mb\.json: more than 16 million JSON values")
mixed = capture("mixed_60mb.json", text=head + ', "pad": [' + ",".join(["[0,0,0]"] * 3_900_000 + ["0"] * 3_000_000) + "]}")
case("60 MB of short arrays", ["shot", "--view", "perf", "--replay", mixed, "-o", out_svg], 1,
     r"mixed_60mb\.json: more than 16 million JSON values")
del near, empties, zeros, mixed

# ---- Arguments. --------------------------------------------------------------------------------------------------
case("shot --scale nan (PNG)", ["shot", "--view", "perf", "--scale", "nan", "-o", out_png], 2, r"--scale: expected a number from 1 to 4, got .nan.")
case("shot --scale nan (SVG)", ["shot", "--view", "perf", "--scale", "nan", "-o", out_svg], 2, r"--scale: expected a number from 1 to 4, got .nan.")
case("shot --scale inf", ["shot", "--view", "perf", "--scale", "inf", "-o", out_svg], 2, r"--scale")
case("shot --scale 1e400", ["shot", "--view", "perf", "--scale", "1e400", "-o", out_svg], 2, r"--scale")
long_ok = os.path.join(W, "L" * 250 + ".svg")  # 254 bytes: legal
case("254-character output name", ["shot", "--view", "perf", "-o", long_ok], 0, None)
long_bad = os.path.join(W, "L" * 260 + ".svg")
case("260-character output name", ["shot", "--view", "perf", "-o", long_bad], 1, r"File name too long", max_len=600)
# A file-size limit (ulimit -f) reached while writing: one line, the old file intact, no temporary left.
limited = os.path.join(W, "limited")
os.makedirs(limited, exist_ok=True)
with open(os.path.join(limited, "old.svg"), "w") as f:
    f.write("old")
case("file-size limit during a write", ["shot", "--view", "all", "-o", os.path.join(limited, "old.svg")], 1,
     r"old\.svg: write failed: File too large", fsize=50 << 10)
case("newline in an output name", ["shot", "--view", "perf", "-o", os.path.join(W, "a\nb.txt")], 2,
     r"a\\nb\.txt' must end in \.png or \.svg")
case("10 MB --kernel", ["shot", "--view", "perf", "--kernel", TEN_MB[: 100000], "-o", out_svg], 2, r"unknown kernel")


def devzero():
    return open("/dev/zero", "rb")


def token(n):
    def opener():
        path = os.path.join(W, f"token_{n}")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write("7" * n + " 0" * 31 + "\n")
        return open(path, "rb")
    return opener


def words(text):
    def opener():
        path = os.path.join(W, "words_%d" % (abs(hash(text)) % 100000))
        with open(path, "w") as f:
            f.write(text)
        return open(path, "rb")
    return opener


case("banks < /dev/zero", ["banks", "--width", "4"], 2, r"more than 64 KB of input", stdin=devzero)
case("banks: 10 MB token", ["banks", "--width", "4"], 2, r"banks: ", stdin=token(10 << 20))
case("banks: 60 KB token", ["banks", "--width", "4"], 2, r"banks: .*lane 0", stdin=token(60000))
case("banks: FIFO on stdin, no writer", ["banks", "--width", "4"], 2, r"banks: ", stdin=lambda: open(fifo, "rb", opener=lambda p, f: os.open(p, f | os.O_NONBLOCK)))
case("banks: 31 lanes", ["banks", "--width", "4"], 2, r"banks: ", stdin=words("0 " * 31))
case("banks: 33 lanes", ["banks", "--width", "4"], 2, r"banks: ", stdin=words("0 " * 33))
case("banks: negative offset", ["banks", "--width", "4"], 2, r"banks: ", stdin=words("-4 " + "0 " * 31))
case("banks: offset past 2^32", ["banks", "--width", "4"], 2, r"banks: ", stdin=words("0x100000000 " + "0 " * 31))
case("banks: control characters", ["banks", "--width", "4"], 2, r"banks: .*\\x01", stdin=words("\x01\x02 " + "0 " * 31))
for sub, argv in [("layout", ["layout", "--op", "mma.m16n8k16.f16", "--operand", "A"]),
                  ("swizzle", ["swizzle", "--tiles", "4x4", "--scheme", "none"]),
                  ("list", ["list"]), ("--help", ["--help"]), ("shot --help", ["shot", "--help"]),
                  ("banks --help", ["banks", "--help"])]:
    case(f"{sub} > /dev/full", argv, 1, r"cannot write to standard output", stdin="full")
case("banks > /dev/full", ["banks", "--width", "4"], 1, r"cannot write to standard output",
     stdin=("full", words("0 " * 32)))

# ---- Run them. ----------------------------------------------------------------------------------------------------
failures = 0
rows = []
for name, argv, code, pattern, stdin, max_len, fsize, seconds in cases:
    if args.only and args.only not in name:
        continue
    to_full = False
    if stdin == "full":
        to_full, stdin = True, None
    elif isinstance(stdin, tuple):
        to_full, stdin = True, stdin[1]
    fin = stdin() if stdin else None
    # The window's cases start the whole window (the bundled capture parsed, a first frame drawn by llvmpipe),
    # 3.4-3.7 s on the slower day above: they get the larger bound too; a refusal gets --seconds.
    bound = seconds or (SLOW_SECONDS if "--headless" in argv else args.seconds)
    rc, err, secs, mb = run(argv, fin, "/dev/full" if to_full else "/dev/null", fsize, bound)
    if fin:
        fin.close()
    err = err.rstrip("\n")
    lines = err.count("\n") + 1 if err else 0
    problems = []
    if rc == "timeout" or (isinstance(rc, str) and rc.startswith("signal")):
        problems.append(str(rc))
    elif code is None:
        # Either drawn (exit 0, nothing said) or refused in one line.
        if rc not in (0, 1):
            problems.append(f"exit {rc}")
        elif rc == 1 and not re.search(pattern, err):
            problems.append("message does not match " + pattern)
    elif rc != code:
        problems.append(f"exit {rc}, wanted {code}")
    if code == 0 and pattern:  # went on (the window on the bundled capture) after saying why, in one line
        said = [l for l in err.split("\n") if l and not l.startswith("headless on ")]  # less the headless summary
        if len(said) != 1:
            problems.append(f"{len(said)} lines on stderr")
        elif not re.search(pattern, said[0]):
            problems.append("message does not match " + pattern)
    elif code == 0 or rc == 0:
        if err and code == 0:
            problems.append("said something on success")
    else:
        if lines != 1:
            problems.append(f"{lines} lines on stderr")
        elif pattern and code is not None and not re.search(pattern, err):
            problems.append("message does not match " + pattern)
        if len(err) > max_len + 40:  # the command's prefix and the file's folder come on top of the bound
            problems.append(f"message of {len(err)} characters")
    if secs > bound:
        problems.append(f"{secs:.1f} s, over {bound:g} s")
    if mb > args.mb:
        problems.append(f"{mb:.0f} MB")
    status = "FAIL" if problems else "ok"
    failures += bool(problems)
    shown = err.replace(W, "WORK")[:160]
    print(f"{status}: {name}: exit {rc}, {secs:.2f} s, {mb:.0f} MB: {shown}" + (f"  <- {'; '.join(problems)}" if problems else ""))
    rows.append((name, rc, secs, mb, shown))
    sys.stdout.flush()

if not args.only or args.only in "file-size limit during a write":
    left = sorted(os.listdir(limited))
    kept = open(os.path.join(limited, "old.svg")).read()
    if left != ["old.svg"] or kept != "old":
        print(f"FAIL: after the file-size limit the folder holds {left} and old.svg {kept[:20]!r}")
        failures += 1
    else:
        print("ok: after the file-size limit: old.svg intact, no temporary")

# ---- Interrupted: SIGINT, SIGTERM or SIGHUP while a command draws or writes. -------------------------------------
# The old file is left as it was (or, where the signal came after the rename, the whole new one is there), no
# temporary is left in the folder, the process ends by that signal (exit non-zero; 128+N to a shell) and says so in
# one line. The deck export stops between pictures: exit 1, no deck and no temporary folder.
def wanted(name):
    return not args.only or args.only in name


def interrupted(argv, folder, sig, when, check):
    """Runs argv, sends sig at when(p) (a function that waits), then check(rc, err) gives the problems."""
    t0 = time.monotonic()
    p = subprocess.Popen([GS] + argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        hit = when(p)
        if p.poll() is None:
            p.send_signal(sig)
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return "timeout", "", 0, ["timeout"]
    # The deck's progress lines ("export: picture 3 of 337 ...") come before the one that says what happened.
    err = "\n".join(l for l in err.decode("utf-8", "replace").split("\n") if l and not l.startswith("export: picture"))
    problems = check(p.returncode, err, hit)
    left = [f for f in os.listdir(folder) if ".tmp" in f]
    if left:
        problems.append(f"left {left}")
    if err.count("\n") != 0 or not err:
        problems.append(f"{err.count(chr(10)) + 1 if err else 0} lines on stderr")
    return p.returncode, err, time.monotonic() - t0, problems


def after(seconds):
    return lambda p: time.sleep(seconds) or True


def once_temporary(folder):  # as soon as the write's temporary is there (the PNG's write and fsync: milliseconds)
    def wait(p):
        while p.poll() is None:
            if any(".tmp." in f for f in os.listdir(folder)):
                return True
        return False
    return wait


def report(name, rc, err, secs, problems):
    global failures
    failures += bool(problems)
    shown = err.replace(W, "WORK")[:160]
    print(f"{'FAIL' if problems else 'ok'}: {name}: exit {rc}, {secs:.2f} s: {shown}" +
          (f"  <- {'; '.join(problems)}" if problems else ""))
    irows.append(not problems)
    sys.stdout.flush()


irows = []


def is_png(path):  # a whole PNG: the signature and the IEND chunk at the end
    data = open(path, "rb").read()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and data[-12:-4] == b"\x00\x00\x00\x00IEND"


sigs = [(signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM"), (signal.SIGHUP, "SIGHUP")]
for sig, sname in sigs:
    folder = os.path.join(W, "interrupted_" + sname)
    os.makedirs(folder, exist_ok=True)
    old = os.path.join(folder, "old.png")
    argv = ["shot", "--view", "all", "--scale", "4", "-o", old]  # 6400x3600: seconds of drawing
    # While drawing: nothing written yet.
    with open(old, "w") as f:
        f.write("old")

    def drawing(rc, err, hit):
        problems = [] if rc == -sig else [f"exit {rc}, wanted death by {sname}"]
        if err != f"gemmscope shot: interrupted ({sname})":
            problems.append("message")
        if open(old, "rb").read() != b"old":
            problems.append("old.png changed")
        return problems
    if wanted(f"shot interrupted by {sname} while drawing"):
        report(f"shot interrupted by {sname} while drawing", *interrupted(argv, folder, sig, after(0.5), drawing))
    # While writing: the signal as soon as the temporary appears; it can still land after the rename (then the new
    # picture is whole). Up to 5 tries for one that lands inside the write.
    inside, problems_all = 0, []
    for attempt in range(5 if wanted(f"shot interrupted by {sname} while writing") else 0):
        with open(old, "w") as f:
            f.write("old")

        def writing(rc, err, hit):
            problems = []
            kept = open(old, "rb").read() == b"old"
            if err == f"gemmscope shot: interrupted ({sname}) while writing {old}: left as it was, no temporary behind":
                if not kept:
                    problems.append("said left as it was, but old.png changed")
            elif err == f"gemmscope shot: interrupted ({sname})" or (rc == 0 and not err):
                if not (kept or is_png(old)):
                    problems.append("old.png is neither the old file nor a whole picture")
            else:
                problems.append("message")
            if rc not in (0, -sig):
                problems.append(f"exit {rc}")
            return problems
        rc, err, secs, problems = interrupted(argv, folder, sig, once_temporary(folder), writing)
        problems_all += problems
        if "while writing" in err:
            inside += 1
            break
    if wanted(f"shot interrupted by {sname} while writing"):
        if not inside:
            problems_all.append("no signal landed inside the write in 5 tries")
        report(f"shot interrupted by {sname} while writing", rc, err, secs, problems_all)

    # The deck: stopped between pictures once it has written some into its temporary folder.
    deck = os.path.join(folder, "deck")

    def some_pictures(p):
        for _ in range(600):
            tmp = [f for f in os.listdir(folder) if f.startswith("deck.tmp")]
            if tmp and len(os.listdir(os.path.join(folder, tmp[0]))) >= 2:
                return True
            if p.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    def deck_check(rc, err, hit):
        problems = [] if rc == 1 else [f"exit {rc}, wanted 1"]
        if err != "gemmscope export: interrupted: no deck written, nothing left behind":
            problems.append("message")
        if os.path.exists(deck):
            problems.append("a deck was left")
        if not hit:
            problems.append("the export wrote no picture to interrupt")
        return problems
    if wanted(f"export --deck interrupted by {sname}"):
        report(f"export --deck interrupted by {sname}",
               *interrupted(["export", "--deck", deck], folder, sig, some_pictures, deck_check))

if args.table:
    print("| case | exit | s | MB |")
    print("|---|---|---|---|")
    for name, rc, secs, mb, _ in rows:
        print(f"| {name} | {rc} | {secs:.2f} | {mb:.0f} |")
print(f"{len(rows) - (failures - irows.count(False))} of {len(rows)} bad inputs answered in one "
      f"line within {args.seconds:g} s ({SLOW_SECONDS:g} s for the largest capture read and the window's start) "
      f"and {args.mb:g} MB")
if irows:
    print(f"{irows.count(True)} of {len(irows)} interrupted commands left the old file and no temporary, and said so in "
          "one line")
sys.exit(1 if failures else 0)
