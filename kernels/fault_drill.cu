// The fault drill (gemmscope --fault-drill): kernels that fail on purpose, so that the window's fault
// containment (app/gpu_worker.h) can be tested on a real GPU. None of them is in the registry; only the worker
// process, started with the flag, ever launches one.
//   oob:  a store 256 GiB past the end of a 4 KiB buffer: cudaErrorIllegalAddress, sticky.
//   trap: __trap(): cudaErrorLaunchFailure, sticky.
//   hang: one thread spins on a flag nobody sets, for at most kHangLimitNs (so a watchdog that fails to kill
//         the process does not leave the GPU busy for ever).
#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/cuda_check.cuh"
#include "kernels/fault_drill.h"
#include "kernels/gemm.h"

namespace gs::detail {
namespace {

constexpr uint64_t kHangLimitNs = 600ull * 1000 * 1000 * 1000;

__device__ inline uint64_t globaltimer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void drill_oob(float* buf) {
  // 2^36 floats past a 1024-float buffer: no allocation of this process is mapped there.
  buf[(size_t(1) << 36) + threadIdx.x] = 1.0f;
}

__global__ void drill_trap() { __trap(); }

__global__ void drill_hang(const volatile int* stop) {
  const uint64_t t0 = globaltimer_ns();
  while (*stop == 0 && globaltimer_ns() - t0 < kHangLimitNs) {
  }
}

}  // namespace

bool is_fault_drill(const std::string& kind) {
  for (const std::string& k : fault_drill_kinds())
    if (k == kind) return true;
  return false;
}

std::string launch_fault_drill(const std::string& kind, cudaStream_t stream) {
  if (!is_fault_drill(kind)) return "unknown fault drill '" + kind.substr(0, 40) + "' (oob, trap or hang)";
  void* buf = nullptr;
  GS_CUDA(cudaMalloc(&buf, 4096));
  GS_CUDA(cudaMemsetAsync(buf, 0, 4096, stream));
  if (kind == "oob") drill_oob<<<1, 32, 0, stream>>>(static_cast<float*>(buf));
  else if (kind == "trap") drill_trap<<<1, 32, 0, stream>>>();
  else drill_hang<<<1, 1, 0, stream>>>(static_cast<const int*>(buf));
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) {
    GS_CUDA(cudaFree(buf));
    return "";
  }
  // The context is likely broken: freeing may fail too, and is not worth a second message.
  cudaFree(buf);
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

std::string sticky_cuda_error() {
  // An asynchronous kernel fault (illegal address, trap, assert) is sticky: every later synchronisation
  // returns it again. Anything else is cleared by cudaGetLastError and does not come back.
  if (cudaDeviceSynchronize() == cudaSuccess) return "";
  cudaGetLastError();
  const cudaError_t again = cudaDeviceSynchronize();
  if (again == cudaSuccess) return "";
  return std::string(cudaGetErrorString(again)) + " (" + cudaGetErrorName(again) + ")";
}

}  // namespace gs::detail

namespace gs {

const std::vector<std::string>& fault_drill_kinds() {
  static const std::vector<std::string> kinds{"oob", "trap", "hang"};
  return kinds;
}

}  // namespace gs
