// The sgemm ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/sgemm/01_naive.cuh"
#include "kernels/sgemm/02_gmem_coalesce.cuh"
#include "kernels/sgemm/03_smem_tiling.cuh"
#include "kernels/sgemm/04_blocktile_1d.cuh"
#include "kernels/sgemm/05_blocktile_2d.cuh"
#include "kernels/sgemm/06_vectorize.cuh"
#include "kernels/sgemm/07_warptile.cuh"
#include "kernels/sgemm/08_double_buffer.cuh"
#include "kernels/sgemm/09_cp_async.cuh"
#include "kernels/sgemm/10_thread_tile_16x8.cuh"
#include "kernels/sgemm/11_block_128x256_k16.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {
namespace {

// ThreadTiling from a rung's constants, in the order gemm.h describes them.
ThreadTiling tiling(int warps_m, int warps_n, int threads_m, int threads_n, int tm, int tn, int reps_m, int reps_n,
                    int block_k, bool column_major = false) {
  ThreadTiling t;
  t.warps_m = warps_m, t.warps_n = warps_n;
  t.threads_m = threads_m, t.threads_n = threads_n;
  t.column_major = column_major;
  t.tm = tm, t.tn = tn;
  t.reps_m = reps_m, t.reps_n = reps_n;
  t.block_k = block_k;
  return t;
}

}  // namespace

// The launchers of one block order (kCode, block_order.cuh's order_code) of the top rung, for
// push_order_variants.
template <int kCode>
struct sgemm_10_orders {
  static std::vector<PrecisionLaunch> get() {
    namespace r = sgemm_10_thread_tile_16x8;
    return {erase<float, float, GS_LAUNCHERS_WITH(r::launch, kCode)>(Precision::F32)};
  }
};

std::vector<Rung> sgemm_rungs() {
  std::vector<Rung> ladder;
  {
    namespace r = sgemm_01_naive;
    Rung g;
    g.info.name = "sgemm/01_naive";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlock;
    g.info.block_n = r::kBlock;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kBlock, r::kBlock, 1, 1, 1, 1, 1, true);
    g.info.reuse_m = g.info.reuse_n = 1;  // every thread reads its own row of A and column of B
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_02_gmem_coalesce;
    Rung g;
    g.info.name = "sgemm/02_gmem_coalesce";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBlock;
    g.info.block_n = r::kBlock;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kBlock, r::kBlock, 1, 1, 1, 1, 1);
    g.info.reuse_m = g.info.reuse_n = 1;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_03_smem_tiling;
    Rung g;
    g.info.name = "sgemm/03_smem_tiling";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kTile;
    g.info.block_n = r::kTile;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kTile, r::kTile, 1, 1, 1, 1, r::kTile);
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_04_blocktile_1d;
    Rung g;
    g.info.name = "sgemm/04_blocktile_1d";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kBM / r::kTM, r::kBN, r::kTM, 1, 1, 1, r::kBK);
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_05_blocktile_2d;
    Rung g;
    g.info.name = "sgemm/05_blocktile_2d";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kBM / r::kTM, r::kBN / r::kTN, r::kTM, r::kTN, 1, 1, r::kBK);
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_06_vectorize;
    Rung g;
    g.info.name = "sgemm/06_vectorize";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling = tiling(1, 1, r::kBM / r::kTM, r::kBN / r::kTN, r::kTM, r::kTN, 1, 1, r::kBK);
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_07_warptile;
    Rung g;
    g.info.name = "sgemm/07_warptile";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    // The warp and lane tiling of one warp shape (r::WarpShape), for the rung and its [warp=...] variant.
    auto describe = [](KernelInfo& info, auto shape) {
      using W = decltype(shape);
      info.thread_tiling =
          tiling(W::kWarpsM, W::kWarpsN, W::kLanesM, W::kLanesN, r::kSub, r::kSub, r::kSubsM, r::kSubsN, r::kBK);
      info.warps.warps_m = W::kWarpsM;
      info.warps.warps_n = W::kWarpsN;
      info.warps.warp_m = W::kWM;
      info.warps.warp_n = W::kWN;
      info.warps.block_k = r::kBK;
      info.warps.op = "";
      info.warps.frag_m = W::kLanesM * r::kSub;
      info.warps.frag_n = W::kLanesN * r::kSub;
      info.warps.frag_k = 1;
    };
    describe(g.info, r::WarpShape<r::kWarpsM>{});
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    // Its warp tile turned, [warp=64x32]: the same block tile and lane blocks, 2 x 4 warps.
    Rung v = toggle_variant(g, "warp", "64x32", r::kWarp64x32Adds,
                            {erase<float, float, GS_LAUNCHERS(r::launch_warp_64x32)>(
                                Precision::F32)});
    describe(v.info, r::WarpShape<2>{});
    ladder.push_back(std::move(g));
    ladder.push_back(std::move(v));
  }
  {
    namespace r = sgemm_08_double_buffer;
    Rung g;
    g.info.name = "sgemm/08_double_buffer";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling =
        tiling(r::kWarpsM, r::kWarpsN, r::kLanesM, r::kLanesN, r::kSub, r::kSub, r::kSubsM, r::kSubsN, r::kBK);
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWM;
    g.info.warps.warp_n = r::kWN;
    g.info.warps.block_k = r::kBK;
    g.info.warps.op = "";
    g.info.warps.frag_m = r::kLanesM * r::kSub;
    g.info.warps.frag_n = r::kLanesN * r::kSub;
    g.info.warps.frag_k = 1;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_09_cp_async;
    Rung g;
    g.info.name = "sgemm/09_cp_async";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling =
        tiling(r::kWarpsM, r::kWarpsN, r::kLanesM, r::kLanesN, r::kSub, r::kSub, r::kSubsM, r::kSubsN, r::kBK);
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWM;
    g.info.warps.warp_n = r::kWN;
    g.info.warps.block_k = r::kBK;
    g.info.warps.op = "";
    g.info.warps.frag_m = r::kLanesM * r::kSub;
    g.info.warps.frag_n = r::kLanesN * r::kSub;
    g.info.warps.frag_k = 1;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_10_thread_tile_16x8;
    Rung g;
    g.info.name = "sgemm/10_thread_tile_16x8";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling =
        tiling(r::kWarpsM, r::kWarpsN, r::kLanesM, r::kLanesN, r::kSub, r::kSub, r::kSubsM, r::kSubsN, r::kBK);
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWM;
    g.info.warps.warp_n = r::kWN;
    g.info.warps.block_k = r::kBK;
    g.info.warps.op = "";
    g.info.warps.frag_m = r::kLanesM * r::kSub;
    g.info.warps.frag_n = r::kLanesN * r::kSub;
    g.info.warps.frag_k = 1;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(g);
    push_order_variants<sgemm_10_orders>(&ladder, g);  // its blocks in every scheme, [order=S]
    // Its 16-byte copies of B and float4 stores of C switched off, [vec=off].
    ladder.push_back(toggle_variant(
        g, "vec", "off", r::kVecOffAdds,
        {erase<float, float, GS_LAUNCHERS(r::launch_vec_off)>(Precision::F32)}));
  }
  {
    namespace r = sgemm_11_block_128x256_k16;
    Rung g;
    g.info.name = "sgemm/11_block_128x256_k16";
    g.info.family = "sgemm";
    g.info.title = r::kTitle;
    g.info.adds = r::kAdds;
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.info.thread_tiling =
        tiling(r::kWarpsM, r::kWarpsN, r::kLanesM, r::kLanesN, r::kSub, r::kSub, r::kSubsM, r::kSubsN, r::kBK);
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kWM;
    g.info.warps.warp_n = r::kWN;
    g.info.warps.block_k = r::kBK;
    g.info.warps.op = "";
    g.info.warps.frag_m = r::kLanesM * r::kSub;
    g.info.warps.frag_n = r::kLanesN * r::kSub;
    g.info.warps.frag_k = 1;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  return ladder;
}

}  // namespace gs::detail
