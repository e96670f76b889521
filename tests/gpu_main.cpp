// main() of the GPU tests: where there is no CUDA device they exit 77, which ctest reports as
// skipped (SKIP_RETURN_CODE), never as passed. Listing tests needs no GPU: ctest discovers them anywhere.
#include <cstdio>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "app/gpu_worker.h"
#include "kernels/gemm.h"

int main(int argc, char** argv) {
  // The GpuWorker tests start this binary again as the window's worker process, as gemmscope does itself.
  if (argc > 1 && std::strcmp(argv[1], gs::kGpuWorkerCommand) == 0) return gs::gpu_worker_main(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  std::string why;
  if (gs::cuda_device_count(&why) == 0) {
    std::printf("no CUDA device: %s; GPU tests skipped\n", why.c_str());
    return 77;
  }
  return RUN_ALL_TESTS();
}
