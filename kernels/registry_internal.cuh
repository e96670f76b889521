// Internal to kernels/: the registry's table with the type-erased launchers the runner calls.
// The public side (KernelInfo, kernel_registry()) is a view of this same table.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <cuda_runtime.h>

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

// One precision of one rung: the same kernel body instantiated for both probes.
struct PrecisionLaunch {
  Precision precision = Precision::F32;
  PlainLaunch plain = nullptr;    // NoProbe: what run() verifies and times
  TracedLaunch traced = nullptr;  // TraceProbe: what trace() decodes
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

// One precision of a rung: its launch<Probe> instantiated for both probes behind untyped pointers.
template <class TIn, class TOut, auto Plain, auto Traced>
PrecisionLaunch erase(Precision p) {
  PrecisionLaunch l;
  l.precision = p;
  l.plain = [](const RawArgs& r, cudaStream_t s) { return Plain(typed<TIn, TOut>(r), NoProbe{}, s); };
  l.traced = [](const RawArgs& r, const TraceProbe& t, cudaStream_t s) { return Traced(typed<TIn, TOut>(r), t, s); };
  return l;
}

// What a swizzling rung's variant [order=row] adds, written once for all of them: the same kernel in the
// order the swizzle replaced.
inline constexpr const char* kRowOrderAdds =
    "Variant: the same kernel with the swizzle off, its blocks launched in row-major order (one band as wide "
    "as C), so the launch-order view and tools/l2_ncu.sh compare one kernel's two orders.";

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
