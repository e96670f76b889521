// The wgmma ceiling's launcher (kernels/hopper/wgmma_loop.cu, built for sm_90a only), for kernels/ceilings.cu,
// which is compiled for every architecture and so cannot hold wgmma itself. No CUDA types beyond cudaError_t.
#pragma once

#include <cuda_runtime.h>

namespace gs::hopper {

// Launches wgmma_loop (wgmma_loop.cuh) on `blocks` CTAs of two warpgroups, each issuing `iters` k-tiles of four
// wgmma.m64n256k16, on stream 0 without synchronising. cudaErrorNoKernelImageForDevice on a GPU that is not sm_90.
cudaError_t launch_wgmma_loop(int blocks, int iters, float* sink);
// The flops such a launch does.
double wgmma_loop_flops(int blocks, int iters);

}  // namespace gs::hopper
