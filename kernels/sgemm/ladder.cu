// The sgemm ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/sgemm/01_naive.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<Rung> sgemm_rungs() {
  std::vector<Rung> ladder;
  {
    namespace r = sgemm_01_naive;
    Rung g;
    g.info.name = "sgemm/01_naive";
    g.info.family = "sgemm";
    g.info.title = "Naive: one thread per output element";
    g.info.adds =
        "The baseline. One thread computes one element of C from its row of A and column of B, straight "
        "from global memory. Lanes of a warp take consecutive rows, so loads of A and stores of C stride by "
        "whole rows (uncoalesced) and nothing is reused between threads: the next rungs fix that.";
    g.info.block_m = r::kBlock;
    g.info.block_n = r::kBlock;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  return ladder;
}

}  // namespace gs::detail
