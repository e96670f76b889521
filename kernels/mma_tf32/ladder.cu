// The mma_tf32 ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<Rung> mma_tf32_rungs() {
  std::vector<Rung> ladder;
  return ladder;
}

}  // namespace gs::detail
