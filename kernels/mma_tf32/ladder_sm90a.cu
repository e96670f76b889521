// The launchers of mma_tf32/12_tma_producer, whose producer warpgroup gives its registers to the mma warps with
// setmaxnreg: sm_90a code, so this translation unit is compiled with the hopper ladder's target alone
// (kernels/CMakeLists.txt). mma_tf32/ladder.cu registers the rung.
#include "kernels/mma_tf32/12_tma_producer.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<PrecisionLaunch> mma_tf32_12_launches() {
  namespace r = mma_tf32_12_tma_producer;
  return {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::TF32)};
}

}  // namespace gs::detail
