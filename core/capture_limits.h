// What a capture keeps of a traced launch's stage stamps (kernels/record.cpp writes within these limits), so that
// a view reading the capture can tell a block's whole run from the part of it that was kept.
#pragma once

#include <cstddef>

namespace gs {

inline constexpr size_t kCaptureStageBlocks = 2;        // sampled blocks whose stamps a capture keeps, per rung
inline constexpr size_t kCaptureStageRecords = 8192;    // stamps kept per rung, all its blocks together
inline constexpr size_t kCaptureStageWarpRecords = 1024;  // per warp: a persistent CTA's 4 tiles of 64 k-steps fit
// The largest M, N or K a capture holds (and bench and record take): 2^20, past any GEMM a GPU's memory holds.
inline constexpr int kMaxGemmDim = 1 << 20;

}  // namespace gs
