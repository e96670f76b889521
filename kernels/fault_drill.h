// The fault drill's kernels (kernels/fault_drill.cu) and the test for a CUDA context that a fault broke.
#pragma once

#include <string>

#include <cuda_runtime.h>

namespace gs::detail {

bool is_fault_drill(const std::string& kind);  // "oob", "trap" or "hang"
// Launches the drill's kernel and waits for it; what CUDA reported ("" if nothing failed).
std::string launch_fault_drill(const std::string& kind, cudaStream_t stream);
// "" while the current device's context works; else the sticky error that broke it, in one line.
std::string sticky_cuda_error();

}  // namespace gs::detail
