// The launchers of mma_f16/11_tma_producer, whose producer warpgroup gives its registers to the mma warps with
// setmaxnreg: sm_90a code, so this translation unit is compiled with the hopper ladder's target alone
// (kernels/CMakeLists.txt). mma_f16/ladder.cu registers the rung.
#include "kernels/mma_f16/11_tma_producer.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<PrecisionLaunch> mma_f16_11_launches() {
  namespace r = mma_f16_11_tma_producer;
  return {erase<__half, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F16_F32)};
}

}  // namespace gs::detail
