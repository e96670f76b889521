#include "kernels/cublas_api.h"

#include <dlfcn.h>

#include <mutex>

#include "kernels/cuda_check.cuh"

namespace gs::detail {
namespace {

// The soname of the cuBLAS the headers came from (found as the loader finds libraries: LD_LIBRARY_PATH,
// ld.so.conf), then the same file in the toolkit the build used, then the unversioned name.
constexpr const char* kNames[] = {"libcublas.so." GS_STR(CUBLAS_VER_MAJOR),
                                  GS_CUDA_LIBRARY_DIR "/libcublas.so." GS_STR(CUBLAS_VER_MAJOR), "libcublas.so"};

template <class F>
void bind(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (!*out) throw CudaFailure(std::string("cuBLAS has no ") + name + ": " + kNames[0] + " is not the version built against");
}

CublasApi load() {
  void* lib = nullptr;
  std::string why;
  for (const char* name : kNames) {
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (why.empty()) why = dlerror();
  }
  if (!lib) throw CudaFailure("cannot load cuBLAS (" + why + "); install the CUDA toolkit's cuBLAS or add its lib64 to LD_LIBRARY_PATH");
  CublasApi api;
  bind(lib, "cublasCreate_v2", &api.create);
  bind(lib, "cublasDestroy_v2", &api.destroy);
  bind(lib, "cublasSetStream_v2", &api.set_stream);
  bind(lib, "cublasSetMathMode", &api.set_math_mode);
  bind(lib, "cublasGemmEx", &api.gemm_ex);
  bind(lib, "cublasGetStatusString", &api.status_string);
  bind(lib, "cublasGetStatusName", &api.status_name);
  return api;  // the library stays loaded for the life of the process
}

}  // namespace

const char* cublas_status_text(cublasStatus_t s, bool name) {
  const CublasApi& api = cublas();
  return name ? api.status_name(s) : api.status_string(s);
}

const CublasApi& cublas() {
  static std::once_flag once;
  static CublasApi api;
  static std::string failure;
  std::call_once(once, [] {
    try {
      api = load();
    } catch (const CudaFailure& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw CudaFailure(failure);
  return api;
}

}  // namespace gs::detail
