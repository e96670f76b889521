// The wgmma accumulator probe (kernels/hopper/wgmma_probe.cu, built for sm_90a only): one warpgroup issues
// one wgmma.m64n16k16 (fp16 in, fp32 accumulate) on operands it places in shared memory the way the rungs'
// descriptors read them, and writes its 8 accumulator registers per thread out as they are.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace gs::hopper {

inline constexpr int kWgmmaProbeM = 64, kWgmmaProbeN = 16, kWgmmaProbeK = 16;

// a: 64 x 16 and b: 16 x 16 row-major fp16 bits in device memory; out: [thread 0..127][register 0..7] fp32.
// Launches on the current stream (0) without synchronising. cudaErrorNoKernelImageForDevice on a GPU that
// is not sm_90.
cudaError_t launch_wgmma_acc_probe(const uint16_t* a, const uint16_t* b, float* out);
// Whether the current device runs sm_90a code (compute capability 9.0).
bool wgmma_probe_runs_here();

}  // namespace gs::hopper
