// The wmma ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/wmma/01_naive.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<Rung> wmma_rungs() {
  std::vector<Rung> ladder;
  {
    namespace r = wmma_01_naive;
    Rung g;
    g.info.name = "wmma/01_naive";
    g.info.family = "wmma";
    g.info.title = "Naive WMMA: one warp per 16x16 tile of C";
    g.info.adds =
        "Tensor cores through nvcuda::wmma. One warp computes one 16x16 tile of C with m16n16k16 mma_sync: "
        "4096 multiply-adds per call, where a SIMT lane does one FMA per instruction. Fragments still come "
        "straight from global memory with no reuse between warps, so it starves for data.";
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  return ladder;
}

}  // namespace gs::detail
