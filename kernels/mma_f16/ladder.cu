// The mma_f16 ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/mma_f16/01_vectorized.cuh"
#include "kernels/mma_f16/02_conflict_free.cuh"
#include "kernels/mma_f16/03_cp_async.cuh"
#include "kernels/mma_f16/04_registers.cuh"
#include "kernels/mma_f16/05_double_buffer.cuh"
#include "kernels/mma_f16/06_warp_64x64.cuh"
#include "kernels/mma_f16/07_swizzle.cuh"
#include "kernels/mma_f16/08_ldmatrix.cuh"
#include "kernels/mma_f16/09_xor_permuted.cuh"
#include "kernels/mma_f16/10_multistage.cuh"
#include "kernels/mma_f16/11_tma_producer.cuh"
#include "kernels/mma_f16/12_persistent.cuh"
#include "kernels/mma_f16/13_stream_k.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// mma_f16/11's, 12's and 13's launchers: setmaxnreg makes them sm_90a code, so they are compiled in
// mma_f16/ladder_sm90a.cu, with the hopper ladder's target (kernels/CMakeLists.txt). This translation unit only
// reads the rungs' constants.
std::vector<PrecisionLaunch> mma_f16_11_launches();
std::vector<PrecisionLaunch> mma_f16_12_launches();
std::vector<PrecisionLaunch> mma_f16_13_launches();

// One registry entry from a rung namespace NS: every mma_f16 rung names its geometry with the same
// constants and its texts (kTitle, kAdds) in its own file, so only the name and the launchers (LAUNCH, an
// expression in which r names NS) differ from rung to rung. (A namespace cannot be a template argument, hence
// the macros.)
#define GS_MMA_F16_RUNG_LAUNCH(NS, NAME, LAUNCH)                                                               \
  [] {                                                                                                         \
    namespace r = NS;                                                                                          \
    Rung g = rung_entry(NAME, "mma_f16", r::kTitle, r::kAdds, r::kBlockM, r::kBlockN, r::kThreads,             \
                        r::kShapeRule, r::supports,                                                            \
                        warp_tiling(r::kWarpsM, r::kWarpsN, r::kWarpM, r::kWarpN, r::kBlockK, "mma.m16n8k16.f16", \
                                    r::kMmaM, r::kMmaN, r::kMmaK));                                            \
    g.stages = names(r::kStageNames);                                                                          \
    g.smem_sites = names(r::kSmemSites);                                                                       \
    g.launch = LAUNCH;                                                                                         \
    return g;                                                                                                  \
  }()
#define GS_MMA_F16_RUNG(NS, NAME)    \
  GS_MMA_F16_RUNG_LAUNCH(NS, NAME, \
                         (std::vector<PrecisionLaunch>{erase<__half, float, GS_LAUNCHERS(r::launch)>(Precision::F16_F32)}))
// The TMA rungs (11, 12, 13): sm_90a code whose launchers LAUNCHES() come from ladder_sm90a.cu, with a producer
// warpgroup beside the mma warps.
#define GS_MMA_F16_TMA_RUNG(NS, NAME, LAUNCHES) \
  with_tma_producer(GS_MMA_F16_RUNG_LAUNCH(NS, NAME, LAUNCHES()), NS::kThreads / 32 - NS::kMmaWarps, NS::unavailable_here)

// The launchers of one block order (kCode, block_order.cuh's order_code) of a swizzling rung NS, for
// push_order_variants: a struct template per rung, since a namespace cannot be a template argument.
#define GS_MMA_F16_ORDERS(NS)                                                                             \
  template <int kCode>                                                                                 \
  struct NS##_orders {                                                                                 \
    static std::vector<PrecisionLaunch> get() {                                                        \
      return {erase<__half, float, GS_LAUNCHERS_WITH(NS::launch, kCode)>(Precision::F16_F32)}; \
    }                                                                                                  \
  };

GS_MMA_F16_ORDERS(mma_f16_07_swizzle)
GS_MMA_F16_ORDERS(mma_f16_08_ldmatrix)
GS_MMA_F16_ORDERS(mma_f16_09_xor_permuted)
GS_MMA_F16_ORDERS(mma_f16_10_multistage)
#undef GS_MMA_F16_ORDERS

// Rung 10 with S cp.async stages, for its variants [stages=S].
template <int S>
std::vector<PrecisionLaunch> mma_f16_10_stages() {
  namespace r = mma_f16_10_multistage;
  return {erase<__half, float, GS_LAUNCHERS_WITH(r::launch_stages, S)>(Precision::F16_F32)};
}

std::vector<Rung> mma_f16_rungs() {
  const std::initializer_list<const char*> kLoads = {"ldmatrix.x4", "ldmatrix.x4.trans"};
  std::vector<Rung> ladder;
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_01_vectorized, "mma_f16/01_vectorized"));
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_02_conflict_free, "mma_f16/02_conflict_free"));
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_03_cp_async, "mma_f16/03_cp_async"));
  // 01-03 hold one A and one B fragment at a time: a warp loads its B fragments again for every row of tiles
  // (04 keeps them in registers). (mma_tf32/01-03 hold a row of tiles' A fragments, and reload B the same way.)
  for (Rung& g : ladder) g.info.warps.b_per_tile_row = true;
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_04_registers, "mma_f16/04_registers"));
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_05_double_buffer, "mma_f16/05_double_buffer"));
  ladder.push_back(GS_MMA_F16_RUNG(mma_f16_06_warp_64x64, "mma_f16/06_warp_64x64"));
  // The swizzling rungs, each followed by its block order variants [order=S].
  const Rung r07 = GS_MMA_F16_RUNG(mma_f16_07_swizzle, "mma_f16/07_swizzle");
  ladder.push_back(r07);
  push_order_variants<mma_f16_07_swizzle_orders>(&ladder, r07);
  const Rung r08 = with_loads(GS_MMA_F16_RUNG(mma_f16_08_ldmatrix, "mma_f16/08_ldmatrix"), kLoads);
  ladder.push_back(r08);
  push_order_variants<mma_f16_08_ldmatrix_orders>(&ladder, r08);
  const Rung r09 = with_loads(GS_MMA_F16_RUNG(mma_f16_09_xor_permuted, "mma_f16/09_xor_permuted"), kLoads);
  ladder.push_back(r09);
  push_order_variants<mma_f16_09_xor_permuted_orders>(&ladder, r09);
  const Rung r10 = with_loads(GS_MMA_F16_RUNG(mma_f16_10_multistage, "mma_f16/10_multistage"), kLoads);
  ladder.push_back(r10);
  push_order_variants<mma_f16_10_multistage_orders>(&ladder, r10);
  // Its pipeline depth, [stages=S]: the toggle that shows what the stages buy.
  ladder.push_back(toggle_variant(r10, "stages", "2", stages_adds(2, mma_f16_10_multistage::kStages), mma_f16_10_stages<2>()));
  ladder.push_back(toggle_variant(r10, "stages", "3", stages_adds(3, mma_f16_10_multistage::kStages), mma_f16_10_stages<3>()));
  // Its XOR permutation, [xor=off]: what rung 09's step is worth at the top of the ladder.
  {
    namespace r = mma_f16_10_multistage;
    ladder.push_back(toggle_variant(
        r10, "xor", "off", r::kXorOffAdds,
        {erase<__half, float, GS_LAUNCHERS(r::launch_xor_off)>(Precision::F16_F32)}));
    // Its ldmatrix, [ldmatrix=off]: fragments by plain shared loads (the layout view shows the computing op only).
    Rung v = toggle_variant(
        r10, "ldmatrix", "off", r::kLdmatrixOffAdds,
        {erase<__half, float, GS_LAUNCHERS(r::launch_ldmatrix_off)>(Precision::F16_F32)});
    v.info.ops.resize(1);
    ladder.push_back(v);
  }
  ladder.push_back(with_loads(GS_MMA_F16_TMA_RUNG(mma_f16_11_tma_producer, "mma_f16/11_tma_producer", mma_f16_11_launches), kLoads));
  ladder.push_back(with_loads(GS_MMA_F16_TMA_RUNG(mma_f16_12_persistent, "mma_f16/12_persistent", mma_f16_12_launches), kLoads));
  ladder.back().info.timeline_focus = "epilogue";  // the next tile's loads run under this tile's epilogue
  Rung r13 = with_loads(GS_MMA_F16_TMA_RUNG(mma_f16_13_stream_k, "mma_f16/13_stream_k", mma_f16_13_launches), kLoads);
  const int(&at)[3] = mma_f16_13_stream_k::kTraceShape;
  r13.info.trace_shape = {at[0], at[1], at[2]};
  ladder.push_back(r13);
  return ladder;
}

#undef GS_MMA_F16_RUNG
#undef GS_MMA_F16_RUNG_LAUNCH
#undef GS_MMA_F16_TMA_RUNG

}  // namespace gs::detail
