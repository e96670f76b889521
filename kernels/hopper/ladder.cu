// The hopper ladder (sm_90a: TMA, wgmma, mbarriers, warp specialization), registered in order: one block per
// rung. registry.cu puts this family after mma_tf32. This translation unit, and only it, is compiled for
// sm_90a (kernels/CMakeLists.txt); on any other GPU the rungs report themselves unavailable instead of running.
#include "kernels/hopper/01_tma_wgmma.cuh"
#include "kernels/hopper/02_tile_128x256.cuh"
#include "kernels/hopper/03_warp_specialized.cuh"
#include "kernels/hopper/04_persistent.cuh"
#include "kernels/hopper/05_cluster_multicast.cuh"
#include "kernels/hopper/06_tma_store.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// One registry entry from a rung namespace NS (every hopper rung names its geometry and texts with the same
// constants). The layout op is wgmma's accumulator (drawn at N = 16; the rungs' N = 256 repeats it); warp
// tilings stay empty: a warpgroup's tile is its 64 rows of the block, all columns.
#define GS_HOPPER_RUNG(NS, NAME, C_TRACED)                                                                \
  [] {                                                                                                    \
    namespace r = NS;                                                                                     \
    Rung g = rung_entry(NAME, "hopper", r::kTitle, r::kAdds, r::kBlockM, r::kBlockN, r::kThreads,         \
                        r::kShapeRule, r::supports);                                                      \
    g.info.gmem_loads_traced = false;                                                                     \
    g.info.gmem_stores_traced = C_TRACED;                                                                 \
    g.info.gmem_untraced = C_TRACED ? "TMA moves whole tiles of A and B (one thread issues each copy), so no "  \
                                      "lane supplies their addresses; C's stores are traced."              \
                                    : "TMA moves whole tiles of A and B, and of C: no lane supplies their "   \
                                      "addresses (C's staging stores are in the bank view).";              \
    g.info.ops = {"wgmma.m64n16k16.f16"};                                                                 \
    g.unavailable = hopper::unavailable_here;                                                             \
    g.info.sm90a_only = true;                                                                             \
    g.stages = names(r::kStageNames);                                                                     \
    g.launch = {erase<__half, float, GS_LAUNCHERS(r::launch)>(Precision::F16_F32)};                       \
    return g;                                                                                             \
  }()

std::vector<Rung> hopper_rungs() {
  std::vector<Rung> ladder;
  ladder.push_back(GS_HOPPER_RUNG(hopper_01_tma_wgmma, "hopper/01_tma_wgmma", true));
  ladder.push_back(GS_HOPPER_RUNG(hopper_02_tile_128x256, "hopper/02_tile_128x256", true));
  ladder.push_back(GS_HOPPER_RUNG(hopper_03_warp_specialized, "hopper/03_warp_specialized", true));
  ladder.push_back(GS_HOPPER_RUNG(hopper_04_persistent, "hopper/04_persistent", true));
  {
    // Variant (DESIGN.md "Variants"): the same kernel walking the tiles row-major, so the launch-order view and
    // the bench can set the grouped order beside the plain one.
    namespace r = hopper_04_persistent;
    Rung v = GS_HOPPER_RUNG(hopper_04_persistent, "hopper/04_persistent[order=none]", true);
    v.info.adds = r::kRowOrderAdds;
    v.launch = {erase<__half, float, GS_LAUNCHERS_WITH(r::launch, r::kRowMajor)>(Precision::F16_F32)};
    ladder.push_back(v);
  }
  // A 2x1 cluster reads each B tile from L2 once for both CTAs (multicast): one read serves the cluster's tile,
  // 256x256, and the roofline's intensity is that tile's (128 flop/byte in f16, not the block tile's 85).
  const auto cluster_reuse = [](Rung r, int block_m, int block_n, int cluster) {
    r.info.reuse_m = block_m * cluster, r.info.reuse_n = block_n;
    return r;
  };
  {
    namespace c5 = hopper_05_cluster_multicast;
    ladder.push_back(cluster_reuse(GS_HOPPER_RUNG(hopper_05_cluster_multicast, "hopper/05_cluster_multicast", true),
                                   c5::kBlockM, c5::kBlockN, c5::kCluster));
  }
  {
    namespace c6 = hopper_06_tma_store;
    Rung g = cluster_reuse(GS_HOPPER_RUNG(hopper_06_tma_store, "hopper/06_tma_store", false), c6::kBlockM, c6::kBlockN,
                           c6::kCluster);
    g.smem_sites = names(c6::kSmemSites);  // its epilogue's stores; TMA and wgmma do the rest
    g.info.timeline_focus = "epilogue";  // C through TMA stores: what changed is the end of each tile
    ladder.push_back(g);
  }
  return ladder;
}

#undef GS_HOPPER_RUNG

}  // namespace gs::detail
