// The wgmma ceiling's launcher (see wgmma_loop.h).
#include "kernels/hopper/wgmma_loop.h"

#include "kernels/hopper/wgmma_loop.cuh"

namespace gs::hopper {

cudaError_t launch_wgmma_loop(int blocks, int iters, float* sink) {
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(wgmma_loop<>, kLoopSmem);
  if (smem_limit != cudaSuccess) return smem_limit;
  wgmma_loop<><<<blocks, kLoopWarpgroups * kWarpgroup, kLoopSmem>>>(iters, sink);
  return cudaGetLastError();
}

double wgmma_loop_flops(int blocks, int iters) {
  return double(blocks) * kLoopWarpgroups * iters * kLoopWgmmasPerIter * kFlopsPerWgmma;
}

}  // namespace gs::hopper
