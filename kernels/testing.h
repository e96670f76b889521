// Hooks the GPU tests use and the app never needs. No CUDA types, like gemm.h.
#pragma once

#include <string>

#include "kernels/gemm.h"

namespace gs::test_hooks {

// The registry's shape rule as code: false exactly when run() comes back skipped for this shape.
bool shape_supported(const KernelInfo& k, GemmShape s);

// Launches the kernel with NoProbe, with TraceProbe and with StampProbe on the same inputs (opt's alpha and
// beta) and compares the outputs byte for byte: "" when identical, otherwise what differs.
std::string compare_probe_outputs(GpuSession& gpu, const KernelInfo& k, Precision p, GemmShape s,
                                  const RunOptions& opt);

// Verifies an output no kernel wrote (it keeps the NaN poison) against cuBLAS: a working harness
// returns ok == false with the NaN count in `error`.
RunResult verify_unwritten_output(GpuSession& gpu, Precision p, GemmShape s);

// What the NoProbe SASS check compares (kernels/CMakeLists.txt builds both objects): the registry
// object as shipped, the registry compiled with GS_STRIP_PROBES, and cuobjdump. Build-tree paths.
struct SassCheckFiles {
  std::string cuobjdump, probed_object, stripped_object;
};
SassCheckFiles sass_check_files();

}  // namespace gs::test_hooks
