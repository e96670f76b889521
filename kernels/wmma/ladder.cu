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
    return {erase<__half, float, r::launch<NoProbe, float, kCode>, r::launch<TraceProbe, float, kCode>>(Precision::F16_F32),
            erase<__half, __half, r::launch<NoProbe, __half, kCode>, r::launch<TraceProbe, __half, kCode>>(
                Precision::F16_F16)};
  }
};

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
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_02_smem;
    Rung g;
    g.info.name = "wmma/02_smem";
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = "C is written with wmma::store_matrix_sync straight from the accumulator fragments, whose "
                           "lane-to-element mapping is unspecified: not traced lane by lane.";
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
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_03_warp_4x2;
    Rung g;
    g.info.name = "wmma/03_warp_4x2";
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = "C is written with wmma::store_matrix_sync straight from the accumulator fragments, whose "
                           "lane-to-element mapping is unspecified: not traced lane by lane.";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_04_dbuf_cp_async;
    Rung g;
    g.info.name = "wmma/04_dbuf_cp_async";
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = "C is written with wmma::store_matrix_sync straight from the accumulator fragments, whose "
                           "lane-to-element mapping is unspecified: not traced lane by lane.";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_05_padded_smem;
    Rung g;
    g.info.name = "wmma/05_padded_smem";
    g.info.gmem_stores_traced = false;
    g.info.gmem_untraced = "C is written with wmma::store_matrix_sync straight from the accumulator fragments, whose "
                           "lane-to-element mapping is unspecified: not traced lane by lane.";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_06_any_shape;
    Rung g;
    g.info.name = "wmma/06_any_shape";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_07_bmma;
    Rung g;
    g.info.name = "wmma/07_bmma";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.warps_k = r::kGroupsK;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = wmma_08_multistage;
    Rung g;
    g.info.name = "wmma/08_multistage";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(g);
    push_order_variants<wmma_08_orders>(&ladder, g);  // its blocks in every scheme, [order=S]
    // Its padding and its 16-byte copies, each switched off: [pad=off], [vec=off].
    ladder.push_back(toggle_variant(
        g, "pad", "off", r::kPadOffAdds,
        {erase<__half, float, r::launch_pad_off<NoProbe, float>, r::launch_pad_off<TraceProbe, float>>(Precision::F16_F32),
         erase<__half, __half, r::launch_pad_off<NoProbe, __half>, r::launch_pad_off<TraceProbe, __half>>(
             Precision::F16_F16)}));
    ladder.push_back(toggle_variant(
        g, "vec", "off", r::kVecOffAdds,
        {erase<__half, float, r::launch_vec_off<NoProbe, float>, r::launch_vec_off<TraceProbe, float>>(Precision::F16_F32),
         erase<__half, __half, r::launch_vec_off<NoProbe, __half>, r::launch_vec_off<TraceProbe, __half>>(
             Precision::F16_F16)}));
  }
  {
    namespace r = wmma_09_pipelined;
    Rung g;
    g.info.name = "wmma/09_pipelined";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(g);
    // Its step switched off: one set of fragments, loaded where they are used, [ahead=off].
    ladder.push_back(toggle_variant(
        g, "ahead", "off", r::kAheadOffAdds,
        {erase<__half, float, r::launch_ahead_off<NoProbe, float>, r::launch_ahead_off<TraceProbe, float>>(
             Precision::F16_F32),
         erase<__half, __half, r::launch_ahead_off<NoProbe, __half>, r::launch_ahead_off<TraceProbe, __half>>(
             Precision::F16_F16)}));
  }
  {
    namespace r = wmma_10_warp_128x64;
    Rung g;
    g.info.name = "wmma/10_warp_128x64";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    // f16.f16 only: a 128x64 tile of fp32 accumulators would need 256 registers per lane.
    g.launch = {erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(g);
    // Its fragment pipelining switched off, as 09's: [ahead=off].
    ladder.push_back(toggle_variant(
        g, "ahead", "off", r::kAheadOffAdds,
        {erase<__half, __half, r::launch_ahead_off<NoProbe, __half>, r::launch_ahead_off<TraceProbe, __half>>(
            Precision::F16_F16)}));
  }
  {
    namespace r = wmma_11_ldmatrix_xor;
    Rung g;
    g.info.name = "wmma/11_ldmatrix_xor";
    g.info.family = "wmma";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlockM;
    g.info.block_n = r::kBlockN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWarpM;
    g.info.warps.warp_n = r::kWarpN;
    g.info.warps.block_k = r::kBlockK;
    g.info.warps.op = "wmma.m16n16k16.f16";
    g.info.ops = {g.info.warps.op};
    g.info.warps.frag_m = r::kTile;
    g.info.warps.frag_n = r::kTile;
    g.info.warps.frag_k = r::kTile;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<__half, float, r::launch<NoProbe, float>, r::launch<TraceProbe, float>>(Precision::F16_F32),
                erase<__half, __half, r::launch<NoProbe, __half>, r::launch<TraceProbe, __half>>(Precision::F16_F16)};
    ladder.push_back(g);
  }
  return ladder;
}

}  // namespace gs::detail
