// cuBLAS, opened when a GPU session first needs it rather than when the program starts: the window
// replaying a capture never pays for loading it (about 0.4 s of start-up), and a machine whose cuBLAS is
// missing still runs everything but the GPU work, which then says what it could not find.
#pragma once

#include <string>

#include <cublas_v2.h>

namespace gs::detail {

struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  // cublasGemmEx has a C++ overload; this is the C symbol (compute type as cublasComputeType_t).
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                            cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;
};

// The loaded library (libcublas.so.<major the build used>), loaded once. Throws CudaFailure naming the
// library and the loader's reason when it cannot be opened or lacks a function.
const CublasApi& cublas();

}  // namespace gs::detail
