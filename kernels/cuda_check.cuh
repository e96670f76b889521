// Every CUDA and cuBLAS status is checked: GS_CUDA(call) / GS_CUBLAS(call) throw CudaFailure with one
// line, "runner.cu:212: cudaMalloc(&p, bytes): out of memory (cudaErrorMemoryAllocation)". The runner
// catches it at its public entry points and returns it as RunResult::error (they never throw).
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace gs::detail {

class CudaFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// __FILE__ is whatever path the build passed; the message keeps only the file name.
inline const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

inline std::string where(const char* file, int line, const char* call) {
  return std::string(base_name(file)) + ":" + std::to_string(line) + ": " + call + ": ";
}

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return;
  throw CudaFailure(where(file, line, call) + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
}

// Takes the status strings from the loaded library (kernels/cublas_api.h), so that no symbol of cuBLAS is
// linked: the program starts without loading it.
const char* cublas_status_text(cublasStatus_t s, bool name);

inline void check_cublas(cublasStatus_t s, const char* call, const char* file, int line) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  throw CudaFailure(where(file, line, call) + cublas_status_text(s, false) + " (" + cublas_status_text(s, true) + ")");
}

}  // namespace gs::detail

#define GS_STR_(x) #x
#define GS_STR(x) GS_STR_(x)
#define GS_CUDA(call) ::gs::detail::check_cuda((call), #call, __FILE__, __LINE__)
#define GS_CUBLAS(call) ::gs::detail::check_cublas((call), #call, __FILE__, __LINE__)
