// What every rung's launcher receives: one struct, the same for every rung (STYLE.md #2).
// Row-major and packed: A is M x K (leading dimension K), B is K x N (N), C is M x N (N).
// C = alpha * A * B + beta * C with BLAS semantics: when beta == 0, C is written and never read.
#pragma once

#include <cuda_fp16.h>

namespace gs {

template <class TIn, class TOut>
struct GemmArgs {
  int m = 0, n = 0, k = 0;
  const TIn* a = nullptr;  // M x K
  const TIn* b = nullptr;  // K x N
  TOut* c = nullptr;       // M x N
  float alpha = 1.0f, beta = 0.0f;  // fp32 for every precision; f16 outputs convert once, in the epilogue
};

// Scalar conversions the epilogues share, so one template body serves fp32 and fp16 outputs.
__host__ __device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }

template <class T> __device__ __forceinline__ T from_float(float x);
template <> __device__ __forceinline__ float from_float<float>(float x) { return x; }
template <> __device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }

}  // namespace gs
