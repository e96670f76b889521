// The launchers of mma_f16/11_tma_producer, 12_persistent and 13_stream_k, whose producer warpgroup gives its
// registers to the mma warps with setmaxnreg: sm_90a code, so this translation unit is compiled with the hopper
// ladder's target alone (kernels/CMakeLists.txt). mma_f16/ladder.cu registers the rungs.
#include "kernels/mma_f16/11_tma_producer.cuh"
#include "kernels/mma_f16/12_persistent.cuh"
#include "kernels/mma_f16/13_stream_k.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<PrecisionLaunch> mma_f16_11_launches() {
  namespace r = mma_f16_11_tma_producer;
  return {erase<__half, float, GS_LAUNCHERS(r::launch)>(Precision::F16_F32)};
}

std::vector<PrecisionLaunch> mma_f16_12_launches() {
  namespace r = mma_f16_12_persistent;
  return {erase<__half, float, GS_LAUNCHERS(r::launch)>(Precision::F16_F32)};
}

std::vector<PrecisionLaunch> mma_f16_13_launches() {
  namespace r = mma_f16_13_stream_k;
  return {erase<__half, float, GS_LAUNCHERS(r::launch)>(Precision::F16_F32)};
}

}  // namespace gs::detail
