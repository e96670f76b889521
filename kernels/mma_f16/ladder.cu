// The mma_f16 ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/registry_internal.cuh"

namespace gs::detail {

std::vector<Rung> mma_f16_rungs() {
  std::vector<Rung> ladder;
  return ladder;
}

}  // namespace gs::detail
