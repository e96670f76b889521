// `gemmscope record`: one capture from one GPU session. Host C++ only: it sees the session through
// gemm.h like any other caller, so a recording and a live window measure with the same code.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/capture_limits.h"
#include "kernels/gemm.h"

#ifndef GEMMSCOPE_VERSION
#define GEMMSCOPE_VERSION "0.1.0"
#endif

namespace gs {

// What a capture keeps of a trace's shared-memory addresses (the rest only grows the file); its stage spans'
// limits are in core/capture_limits.h, where the timeline reads them.
constexpr int kCaptureSmemWarps = 2;
constexpr size_t kCaptureSmemRecords = 1024;
// Global addresses: warps 0 and 1, their first k-iteration and their stores (a naive rung loads every element of
// its k-loop, so a cap keeps its first few dozen). Not the shared-memory records' warps (the first and the last
// that have records): every rung's global accesses start at warp 0.
constexpr size_t kCaptureGmemRecords = 160;
namespace {

std::string num(const char* fmt, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

size_t keep_trace(Capture* c, TraceResult t, const KernelInfo& k) {
  for (BlockRecord& b : t.blocks) c->blocks.push_back(std::move(b));
  // A block order variant is its rung's kernel in another order: its stages and addresses are the rung's,
  // and only its blocks (the schedule) are new.
  if (!k.order_scheme.empty()) return 0;
  // A traced launch stamps every k-iteration of ~16 sampled blocks (over 100k spans at 4096^3); a capture
  // keeps the first two blocks' spans, enough for a timeline of what a warp waits on.
  std::vector<int> kept_blocks;
  std::map<std::pair<int, int>, size_t> per_warp;  // (block, warp) -> spans kept
  size_t kept = 0;
  for (StageRecord& s : t.stages) {
    const bool known = std::find(kept_blocks.begin(), kept_blocks.end(), s.block) != kept_blocks.end();
    if (!known && kept_blocks.size() == kCaptureStageBlocks) continue;
    if (!known) kept_blocks.push_back(s.block);
    if (kept == kCaptureStageRecords) break;
    if (per_warp[{s.block, s.warp}]++ >= kCaptureStageWarpRecords) continue;  // every warp keeps its row
    c->stages.push_back(std::move(s));
    ++kept;
  }
  // Shared-memory addresses: two warps' first k-iteration and their epilogue show every access pattern a rung
  // has (all warps and iterations repeat them at other offsets). The first and the last warp that have records:
  // where warps play different parts (wmma/07's two k-groups, a warp-specialized kernel's warpgroups), both.
  std::vector<int> smem_warps;
  for (const SmemAccess& a : t.smem) {
    if (smem_warps.empty()) smem_warps = {a.warp, a.warp};
    smem_warps[0] = std::min(smem_warps[0], a.warp);
    smem_warps[1] = std::max(smem_warps[1], a.warp);
  }
  size_t smem_kept = 0;
  for (SmemAccess& a : t.smem) {
    const bool kept_warp = std::find(smem_warps.begin(), smem_warps.end(), a.warp) != smem_warps.end();
    if (!kept_warp || a.iteration > 0 || smem_kept == kCaptureSmemRecords) continue;  // -1: the epilogue
    c->smem.push_back(std::move(a));
    ++smem_kept;
  }
  // Global addresses: the lowest-numbered warps that have records (warps 0 and 1 where they load; a
  // warp-specialized kernel's first consumer warps, whose C stores are its only traced accesses).
  std::set<int> gmem_warps;
  for (const GmemAccess& a : t.gmem) gmem_warps.insert(a.warp);
  while (gmem_warps.size() > size_t(kCaptureSmemWarps)) gmem_warps.erase(std::prev(gmem_warps.end()));
  size_t gmem_kept = 0;
  for (GmemAccess& a : t.gmem) {
    if (!gmem_warps.count(a.warp) || a.iteration > 0 || gmem_kept == kCaptureGmemRecords) continue;  // -1: C
    c->gmem.push_back(std::move(a));
    ++gmem_kept;
  }
  return kept;
}

GemmShape recorded_shape(const KernelInfo& k, GemmShape shape) {
  return k.trace_shape.m > 0 && k.trace_shape.n > 0 && k.trace_shape.k > 0 ? k.trace_shape : shape;
}

Capture record_capture(GpuSession& gpu, const std::vector<const KernelInfo*>& kernels, GemmShape shape,
                       const std::function<void(const std::string&)>& progress) {
  Capture c;
  c.recorded_at = utc_now_iso();
  c.tool = std::string("gemmscope ") + GEMMSCOPE_VERSION;
  c.device = gpu.device();

  size_t steps = 2;  // peaks, layouts
  for (const KernelInfo* k : kernels) steps += k->precisions.size();
  size_t step = 0;
  auto say = [&](const std::string& line) {
    ++step;
    if (progress) progress("[" + std::to_string(step) + "/" + std::to_string(steps) + "] " + line);
  };

  // The session's entry points report failures in their results; the catches are a last line of
  // defence so that one broken step costs its own line, not the recording.
  try {
    std::string error;
    c.peaks = gpu.measure_peaks(&error);
    std::string line = "peaks:";
    for (const Peak& p : c.peaks) line += " " + p.name + " " + num("%.3g", p.value) + " " + p.unit + ",";
    if (line.back() == ',') line.pop_back();
    // What was measured stands; the failure names the step that stopped the rest (cuBLAS, the copy or a ceiling).
    if (!error.empty()) line += (c.peaks.empty() ? " FAILED: " : "; then FAILED: ") + error;
    say(line);
  } catch (const std::exception& e) {
    say(std::string("peaks: FAILED: ") + e.what());
  }

  for (const KernelInfo* k : kernels) {
    // A rung whose step shows only at some shapes is traced at one of them (its first run, the one its views
    // read), then timed at `shape` as well, here beside its neighbours and measured as they are.
    const GemmShape at = recorded_shape(*k, shape);
    const std::string size = shape_text(at);
    for (const Precision p : k->precisions) {
      std::string line = k->name + " " + precision_name(p) + " " + size +
                         (at == shape ? "" : " (where its step shows)") + ": ";
      try {
        RunOptions opt;
        opt.pair_cublas = true;  // as `bench`: cuBLAS beside each run, so that both meet the same clocks
        const RunResult r = gpu.run(*k, p, at, opt);
        if (r.skipped) {
          say(line + "skipped: " + r.error);
          continue;
        }
        // A failing run is kept: `gemmscope record` writes the capture and then fails on it.
        c.runs.push_back(r.record());
        if (r.ok) {
          const double pct = r.cublas_tflops > 0 ? 100 * r.tflops / r.cublas_tflops : 0;
          line += num("%.1f", r.tflops) + " TFLOP/s (" + num("%.0f", pct) + "% of cuBLAS), err " +
                  num("%.1e", r.rel_err);
        } else {
          line += "FAILED: " + r.error;
        }
        // Block, stage and smem records name a kernel but no dtype, so each kernel is traced once, at
        // its default precision; two precisions' launches would be indistinguishable in the capture.
        if (p == k->precisions.front()) {
          TraceResult t = gpu.trace(*k, p, at);
          if (t.run.ok) {
            line += "; traced " + std::to_string(t.blocks.size()) + " blocks, " + std::to_string(t.stages.size()) +
                    " stages, " + std::to_string(t.smem.size()) + " smem accesses, " +
                    std::to_string(t.gmem.size()) + " global accesses";
            if (t.dropped() > 0) {
              line += " (trace buffer full: " + std::to_string(t.dropped_blocks) + " blocks, " +
                      std::to_string(t.dropped_stages) + " stage spans, " + std::to_string(t.dropped_smem) +
                      " smem accesses, " + std::to_string(t.dropped_gmem) + " global accesses not recorded)";
            }
          } else {
            line += "; trace FAILED: " + t.run.error;
          }
          const size_t stages_traced = k->order_scheme.empty() ? t.stages.size() : 0;
          const size_t kept = keep_trace(&c, std::move(t), *k);
          if (kept < stages_traced) line += " (" + std::to_string(kept) + " stage spans kept)";
        }
        if (at != shape) {
          const RunResult s = gpu.run(*k, p, shape, opt);
          line += "; at " + shape_text(shape) + ": ";
          if (s.skipped) {
            line += "skipped: " + s.error;
          } else {
            c.runs.push_back(s.record());  // after the traced size's: main_run stays the traced one
            line += s.ok ? num("%.1f", s.tflops) + " TFLOP/s (" +
                               num("%.0f", s.cublas_tflops > 0 ? 100 * s.tflops / s.cublas_tflops : 0) + "% of cuBLAS)"
                         : "FAILED: " + s.error;
          }
        }
      } catch (const std::exception& e) {
        line += std::string("FAILED: ") + e.what();
      }
      say(line);
    }
  }

  try {
    std::string error;
    c.layouts = gpu.trace_layouts(&error);
    say("layouts: " + std::to_string(c.layouts.size()) + " traced" + (error.empty() ? "" : "; FAILED: " + error));
  } catch (const std::exception& e) {
    say(std::string("layouts: FAILED: ") + e.what());
  }
  return c;
}

}  // namespace gs
