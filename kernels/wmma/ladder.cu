// The wmma ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/wmma/01_naive.cuh"
#include "kernels/wmma/02_smem.cuh"
#include "kernels/wmma/03_warp_4x2.cuh"
#include "kernels/wmma/04_dbuf_cp_async.cuh"
#include "kernels/wmma/05_padded_smem.cuh"
#include "kernels/wmma/06_any_shape.cuh"
#include "kernels/wmma/07_bmma.cuh"
#include "kernels/wmma/08_multistage.cuh"
#include "kernels/wmma/09_pipelined.cuh"
#include "kernels/wmma/10_warp_128x64.cuh"
#include "kernels/wmma/11_ldmatrix_xor.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// The launchers of one block order (kCode, block_order.cuh's order_code) of the top rung, both accumulator
// types, for push_order_variants.
template <int kCode>
struct wmma_08_orders {
  static std::vector<PrecisionLaunch> get() {
    namespace r = wmma_08_multistage;
    return {erase<__half, float, GS_LAUNCHERS_WITH(r::launch, float, kCode)>(Precision::F16_F32),
            erase<__half, __half, GS_LAUNCHERS_WITH(r::launch, __half, kCode)>(
                Precision::F16_F16)};
  }
};

// The fields every wmma rung from 02 on fills the same way, from its header's constants (WARP_M, WARP_N: its warp
// tile, given because 02 has none of its own), and its launchers for both accumulator types (L: the rung's launch
// template, e.g. r::launch). Rung 01 and each rung's own extras are spelled out below.
#define GS_WMMA_RUNG(NS, NAME, WARP_M, WARP_N)                                                             \
  [] {                                                                                                     \
    namespace r = NS;                                                                                      \
    Rung g = rung_entry(NAME, "wmma", r::kTitle, r::kAdds, r::kBlockM, r::kBlockN, r::kThreads,            \
                        r::kShapeRule, r::supports,                                                        \
                        warp_tiling(r::kWarpsM, r::kWarpsN, WARP_M, WARP_N, r::kBlockK, "wmma.m16n16k16.f16", \
                                    r::kTile, r::kTile, r::kTile));                                        \
    g.stages = names(r::kStageNames);                                                                      \
    g.smem_sites = names(r::kSmemSites);                                                                   \
    return g;                                                                                              \
  }()
#define GS_WMMA_F32(L) erase<__half, float, GS_LAUNCHERS_WITH(L, float)>(Precision::F16_F32)
#define GS_WMMA_F16(L) erase<__half, __half, GS_LAUNCHERS_WITH(L, __half)>(Precision::F16_F16)

// Rungs 02-05 write C with store_matrix_sync straight from the accumulators.
constexpr const char* kStoresUntraced =
    "C is written with wmma::store_matrix_sync straight from the accumulator fragments, whose lane-to-element "
    "mapping is unspecified: not traced lane by lane.";

std::vector<Rung> wmma_rungs() {
  std::vector<Rung> ladder;
  {
    namespace r = wmma_01_naive;
    Rung g;
    g.info.name = "wmma/01_naive";
    g.info.gmem_loads_traced = g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = "A, B and C move between global memory and fragments with wmma::load_matrix_sync and "
                           "store_matrix_sync, whose lane-to-element mapping is unspecified: not traced lane by lane.";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kTile;
    g.info.warps.warp_n = r::kTile;
    g.info.warps.block_k = r::kTile;
    g.info.reuse_m = g.info.reuse_n = r::kTile;  // each warp loads its 16x16 fragments straight from global
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_02_smem;
    Rung g = GS_WMMA_RUNG(wmma_02_smem, "wmma/02_smem", r::kTile, r::kTile);
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = kStoresUntraced;
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_03_warp_4x2;
    Rung g = GS_WMMA_RUNG(wmma_03_warp_4x2, "wmma/03_warp_4x2", r::kWarpM, r::kWarpN);
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = kStoresUntraced;
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_04_dbuf_cp_async;
    Rung g = GS_WMMA_RUNG(wmma_04_dbuf_cp_async, "wmma/04_dbuf_cp_async", r::kWarpM, r::kWarpN);
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = kStoresUntraced;
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_05_padded_smem;
    Rung g = GS_WMMA_RUNG(wmma_05_padded_smem, "wmma/05_padded_smem", r::kWarpM, r::kWarpN);
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = kStoresUntraced;
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_06_any_shape;
    Rung g = GS_WMMA_RUNG(wmma_06_any_shape, "wmma/06_any_shape", r::kWarpM, r::kWarpN);
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_07_bmma;
    Rung g = GS_WMMA_RUNG(wmma_07_bmma, "wmma/07_bmma", r::kWarpM, r::kWarpN);
    g.info.warps.warps_k = r::kGroupsK;
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_08_multistage;
    Rung g = GS_WMMA_RUNG(wmma_08_multistage, "wmma/08_multistage", r::kWarpM, r::kWarpN);
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(g);
    push_order_variants<wmma_08_orders>(&ladder, g);  // its blocks in every scheme, [order=S]
    // Its padding and its 16-byte copies, each switched off: [pad=off], [vec=off].
    ladder.push_back(toggle_variant(g, "pad", "off", r::kPadOffAdds,
                                    {GS_WMMA_F32(r::launch_pad_off), GS_WMMA_F16(r::launch_pad_off)}));
    Rung vec_off = toggle_variant(g, "vec", "off", r::kVecOffAdds,
                                  {GS_WMMA_F32(r::launch_vec_off), GS_WMMA_F16(r::launch_vec_off)});
    vec_off.stages = names(r::kVecOffStageNames);
    ladder.push_back(std::move(vec_off));
  }
  {
    namespace r = wmma_09_pipelined;
    Rung g = GS_WMMA_RUNG(wmma_09_pipelined, "wmma/09_pipelined", r::kWarpM, r::kWarpN);
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(g);
    // Its step switched off: one set of fragments, loaded where they are used, [ahead=off].
    ladder.push_back(toggle_variant(g, "ahead", "off", r::kAheadOffAdds,
                                    {GS_WMMA_F32(r::launch_ahead_off), GS_WMMA_F16(r::launch_ahead_off)}));
  }
  {
    namespace r = wmma_10_warp_128x64;
    Rung g = GS_WMMA_RUNG(wmma_10_warp_128x64, "wmma/10_warp_128x64", r::kWarpM, r::kWarpN);
    // f16.f16 only: a 128x64 tile of fp32 accumulators would need 256 registers per lane.
    g.launch = {GS_WMMA_F16(r::launch)};
    ladder.push_back(g);
    // Its fragment pipelining switched off, as 09's: [ahead=off].
    ladder.push_back(toggle_variant(g, "ahead", "off", r::kAheadOffAdds, {GS_WMMA_F16(r::launch_ahead_off)}));
  }
  {
    namespace r = wmma_11_ldmatrix_xor;
    Rung g = GS_WMMA_RUNG(wmma_11_ldmatrix_xor, "wmma/11_ldmatrix_xor", r::kWarpM, r::kWarpN);
    g.info.builds_on = "wmma/09_pipelined";  // 09's tile and loop, not 10's f16-only 128x64 warps
    g.launch = {GS_WMMA_F32(r::launch), GS_WMMA_F16(r::launch)};
    ladder.push_back(with_loads(g, {"ldmatrix.x4", "ldmatrix.x4.trans"}));  // its fragments' loads, written out
  }
  return ladder;
}

#undef GS_WMMA_RUNG
#undef GS_WMMA_F32
#undef GS_WMMA_F16

}  // namespace gs::detail
