// Internal to kernels/: the registry's table with the type-erased launchers the runner calls.
// The public side (KernelInfo, kernel_registry()) is a view of this same table.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm.h"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::detail {

// A launcher's GemmArgs with the element types erased: the runner owns untyped device buffers and
// picks the types from the Precision (f32, tf32: float -> float; f16.f32: half -> float; f16.f16: half -> half).
struct RawArgs {
  int m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  float alpha = 1.0f, beta = 0.0f;
};

using PlainLaunch = cudaError_t (*)(const RawArgs&, cudaStream_t);
using TracedLaunch = cudaError_t (*)(const RawArgs&, const TraceProbe&, cudaStream_t);
using StampedLaunch = cudaError_t (*)(const RawArgs&, const StampProbe&, cudaStream_t);

// One precision of one rung: the same kernel body instantiated for each probe.
struct PrecisionLaunch {
  Precision precision = Precision::F32;
  PlainLaunch plain = nullptr;      // NoProbe: what run() verifies and times
  TracedLaunch traced = nullptr;    // TraceProbe: the addresses trace() decodes
  StampedLaunch stamped = nullptr;  // StampProbe: the block records and stage stamps trace() decodes
};

struct Rung {
  KernelInfo info;                            // info.precisions lists launch[i].precision, in order
  bool (*supports)(int m, int n, int k) = nullptr;  // the shape rule as code; info.shape_rule says it in words
  // nullptr, or a check of the current GPU: nullptr when the rung can run there, otherwise one line saying why
  // not (the hopper rungs are sm_90a code only).
  const char* (*unavailable)() = nullptr;
  std::vector<std::string> stages;            // names of the ids the kernel passes to probe.stage()
  std::vector<std::string> smem_sites;        // names of the ids it passes to probe.smem()
  std::vector<PrecisionLaunch> launch;
};

// Typed arguments of a launcher from the runner's untyped ones.
template <class TIn, class TOut>
GemmArgs<TIn, TOut> typed(const RawArgs& r) {
  GemmArgs<TIn, TOut> g;
  g.m = r.m;
  g.n = r.n;
  g.k = r.k;
  g.a = static_cast<const TIn*>(r.a);
  g.b = static_cast<const TIn*>(r.b);
  g.c = static_cast<TOut*>(r.c);
  g.alpha = r.alpha;
  g.beta = r.beta;
  return g;
}

// The launchers erase() takes, one per probe: GS_LAUNCHERS(r::launch), or GS_LAUNCHERS_WITH(r::launch, float, kCode)
// where the launcher has template arguments after the probe.
#define GS_LAUNCHERS(L) L<NoProbe>, L<TraceProbe>, L<StampProbe>
#define GS_LAUNCHERS_WITH(L, ...) L<NoProbe, __VA_ARGS__>, L<TraceProbe, __VA_ARGS__>, L<StampProbe, __VA_ARGS__>

// One precision of a rung: its launch<Probe> instantiated for each probe behind untyped pointers.
template <class TIn, class TOut, auto Plain, auto Traced, auto Stamped>
PrecisionLaunch erase(Precision p) {
  PrecisionLaunch l;
  l.precision = p;
  l.plain = [](const RawArgs& r, cudaStream_t s) { return Plain(typed<TIn, TOut>(r), NoProbe{}, s); };
  l.traced = [](const RawArgs& r, const TraceProbe& t, cudaStream_t s) { return Traced(typed<TIn, TOut>(r), t, s); };
  l.stamped = [](const RawArgs& r, const StampProbe& t, cudaStream_t s) { return Stamped(typed<TIn, TOut>(r), t, s); };
  return l;
}

// ---- Block order variants (DESIGN.md "Variants", `swizzle`) -----------------------------------------
// The schemes every rung that orders its blocks offers as variants [order=S]: none, cutlass:0..4 and
// triton:1, 2, 4, 8, 16. A rung's launch<Probe, kOrder> takes the scheme's order_code; the kernel is the
// same for every order (the scheme is a kernel argument), so each variant adds a launcher, not a kernel.
using OrderCodes = std::integer_sequence<int, order_code(BlockOrder::kNone, 0), order_code(BlockOrder::kCutlass, 0),
                                         order_code(BlockOrder::kCutlass, 1), order_code(BlockOrder::kCutlass, 2),
                                         order_code(BlockOrder::kCutlass, 3), order_code(BlockOrder::kCutlass, 4),
                                         order_code(BlockOrder::kTriton, 1), order_code(BlockOrder::kTriton, 2),
                                         order_code(BlockOrder::kTriton, 4), order_code(BlockOrder::kTriton, 8),
                                         order_code(BlockOrder::kTriton, 16)>;

// The variant of `rung` whose blocks launch in scheme `code`, with the launchers `launch`: named
// rung[order=S], its explanation says what the order is, and info.order_scheme names S.
Rung order_variant(const Rung& rung, int code, std::vector<PrecisionLaunch> launch);

// Appends rung's eleven order variants to `ladder`. Launches<kCode>::get() gives the launchers of one
// scheme (a family's ladder.cu defines it per rung with its launch<Probe, kCode>).
template <template <int> class Launches, int... kCodes>
void push_order_variants(std::vector<Rung>* ladder, const Rung& rung, std::integer_sequence<int, kCodes...>) {
  (ladder->push_back(order_variant(rung, kCodes, Launches<kCodes>::get())), ...);
}
template <template <int> class Launches>
void push_order_variants(std::vector<Rung>* ladder, const Rung& rung) {
  push_order_variants<Launches>(ladder, rung, OrderCodes{});
}

// The variant rung[key=value] of a rung with other code (a template parameter set otherwise): `adds` says
// what it changes; everything else is the rung's.
inline Rung toggle_variant(const Rung& rung, const std::string& key, const std::string& value, std::string adds,
                           std::vector<PrecisionLaunch> launch) {
  Rung v = rung;
  v.info.name = rung.info.name + "[" + key + "=" + value + "]";
  v.info.adds = std::move(adds);
  v.launch = std::move(launch);
  return v;
}

// What a variant [stages=S] of a multistage rung changes, written once for all of them.
inline std::string stages_adds(int s, int rung_stages) {
  return "Variant: the same kernel with " + std::to_string(s) + " cp.async stages instead of " +
         std::to_string(rung_stages) + ": " + std::to_string(s - 1) + (s == 2 ? " k-tile" : " k-tiles") +
         " in flight while the warps compute on one, so a copy has " + std::to_string(s - 1) +
         (s == 2 ? " tile" : " tiles") + " of mma to land behind (wait_group " + std::to_string(s - 2) +
         "). One stage is not offered: nothing would be in flight.";
}

// A rung whose fragments are loaded by other instructions (ldmatrix): the layout view shows their layouts
// beside the computing instruction's.
inline Rung with_loads(Rung g, std::initializer_list<const char*> ops) {
  for (const char* op : ops) g.info.ops.push_back(op);
  return g;
}

template <size_t N>
std::vector<std::string> names(const char* const (&list)[N]) {
  return {list, list + N};
}

// A warp tiling from a rung header's constants: warps_m x warps_n warps of warp_m x warp_n over k-tiles of block_k,
// each computing with `op`, whose unit is frag_m x frag_n x frag_k.
inline WarpTiling warp_tiling(int warps_m, int warps_n, int warp_m, int warp_n, int block_k, const char* op,
                              int frag_m, int frag_n, int frag_k) {
  WarpTiling w;
  w.warps_m = warps_m, w.warps_n = warps_n, w.warp_m = warp_m, w.warp_n = warp_n, w.block_k = block_k;
  w.op = op;
  w.frag_m = frag_m, w.frag_n = frag_n, w.frag_k = frag_k;
  return w;
}

// The part of a rung's entry every tensor-core family fills the same way, from the constants of the rung's own
// header (each family's GS_*_RUNG macro reads them under that family's names, kBlockM or kBM, and adds the
// launchers with the family's types). The layout view shows the tiling's op, when there is one.
inline Rung rung_entry(const char* name, const char* family, const char* title, const char* adds, int block_m,
                       int block_n, int threads, const char* shape_rule, bool (*supports)(int, int, int),
                       WarpTiling warps = {}) {
  Rung g;
  g.info.name = name;
  g.info.family = family;
  g.info.title = title;
  g.info.adds = adds;
  g.info.block_m = block_m;
  g.info.block_n = block_n;
  g.info.threads = threads;
  g.info.shape_rule = shape_rule;
  g.info.warps = std::move(warps);
  if (!g.info.warps.op.empty()) g.info.ops = {g.info.warps.op};
  g.supports = supports;
  return g;
}

// A rung whose A and B tiles a TMA producer warpgroup copies (mma_f16/11, mma_tf32/12): sm_90a code, with
// `producer_warps` warps beside the warp grid, and no lane that supplies A's or B's global addresses.
inline Rung with_tma_producer(Rung g, int producer_warps, const char* (*unavailable)()) {
  g.info.warps.producer_warps = producer_warps;
  g.info.gmem_loads_traced = false;
  g.info.gmem_untraced = "TMA moves whole tiles of A and B (one thread of the producer warp issues each copy), "
                         "so no lane supplies their addresses; C's stores are traced.";
  g.info.sm90a_only = true;
  g.unavailable = unavailable;
  return g;
}

// Each family's rungs in ladder order, one translation unit per family (kernels/<family>/ladder.cu),
// so families compile in parallel. registry.cu concatenates them in this order.
std::vector<Rung> sgemm_rungs();
std::vector<Rung> wmma_rungs();
std::vector<Rung> mma_f16_rungs();
std::vector<Rung> mma_tf32_rungs();
std::vector<Rung> hopper_rungs();

// In ladder order.
const std::vector<Rung>& rungs();
const Rung* find_rung(const std::string& name);
const PrecisionLaunch* find_launch(const Rung& r, Precision p);

}  // namespace gs::detail
