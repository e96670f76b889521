// Internal to kernels/: microbenchmarks of the ceilings the roofline view draws beside cuBLAS
// (GpuSession::measure_peaks is the public way in). No CUDA types, so the runner's host code includes it.
#pragma once

#include <string>
#include <vector>

#include "core/capture.h"

namespace gs {

// Measures, on the current CUDA device and stream 0:
//   l2            TB/s read by every SM from a buffer a quarter of L2's size, read over and over (16-byte loads)
//   ffma          TFLOP/s of warps doing nothing but independent FFMA (8 warps per SM)
//   mma_sync_f16  TFLOP/s of mma.sync m16n8k16 f16 with fp32 accumulate from registers (8 warps per SM,
//                 as the 64x64-warp-tile rungs run), 16 tiles in flight per warp
//   mma_sync_tf32 the same for m16n8k8 tf32
//   wgmma_f16     TFLOP/s of wgmma.m64n256k16 f16 with fp32 accumulate from shared memory (2 warpgroups per SM),
//                 on compute capability 9.0 only (the sm_90a image): the pipe cuBLAS fp16 and the hopper rungs use
// Each Peak's source says how it was measured. On a CUDA failure returns what was measured before it, with
// `error` (if not null) naming the step that failed.
std::vector<Peak> measure_ceilings(int sm_count, int l2_bytes, std::string* error);

}  // namespace gs
