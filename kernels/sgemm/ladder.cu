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
  {
    namespace r = sgemm_02_gmem_coalesce;
    Rung g;
    g.info.name = "sgemm/02_gmem_coalesce";
    g.info.family = "sgemm";
    g.info.title = "Coalesced: a warp walks a row of C";
    g.info.adds =
        "The same work per thread as 01, but the lanes of a warp take consecutive columns of C. Each load "
        "of B and each store of C is then one 128-byte line per warp (coalesced), and all 32 lanes read the "
        "same element of A (one broadcast): far fewer memory transactions.";
    g.info.block_m = r::kBlock;
    g.info.block_n = r::kBlock;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_03_smem_tiling;
    Rung g;
    g.info.name = "sgemm/03_smem_tiling";
    g.info.family = "sgemm";
    g.info.title = "Shared-memory tiles: 32x32 tiles of A and B";
    g.info.adds =
        "The block stages 32x32 tiles of A and B through shared memory, each element read from global "
        "memory once per block instead of once per thread that needs it (32x less traffic). Every "
        "multiply-add still needs two shared loads, so shared-memory bandwidth now bounds it.";
    g.info.block_m = r::kTile;
    g.info.block_n = r::kTile;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_04_blocktile_1d;
    Rung g;
    g.info.name = "sgemm/04_blocktile_1d";
    g.info.family = "sgemm";
    g.info.title = "1D block tiling: 8 results per thread";
    g.info.adds =
        "Each thread computes a column of 8 results (TM = 8) of a 64x64 block tile. The value of B it loads "
        "from shared memory now feeds 8 multiply-adds instead of 1, so shared-memory traffic per FMA drops "
        "several-fold; the 8 partial sums stay in registers.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_05_blocktile_2d;
    Rung g;
    g.info.name = "sgemm/05_blocktile_2d";
    g.info.family = "sgemm";
    g.info.title = "2D block tiling: 8x8 results per thread";
    g.info.adds =
        "Each thread computes an 8x8 block of C (TM x TN) from register-cached slivers of A (8 values) and "
        "B (8 values): 64 multiply-adds per 16 shared loads where 04 did 8 per 9. The block tile grows to "
        "128x128 with 256 threads, so each element fetched from global feeds 128 FMAs.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_06_vectorize;
    Rung g;
    g.info.name = "sgemm/06_vectorize";
    g.info.family = "sgemm";
    g.info.title = "float4 loads, A transposed in shared memory";
    g.info.adds =
        "float4 everywhere. Global loads and C stores move 16 bytes per instruction, and A is stored "
        "transposed in shared memory (As[k][m]): a thread's 8-row sliver of A for one k-step is 32 "
        "contiguous bytes, so every k-step reads A and B as two float4 each (05 held 8 k-steps of A in "
        "registers).";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
    g.supports = r::supports;
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_07_warptile;
    Rung g;
    g.info.name = "sgemm/07_warptile";
    g.info.family = "sgemm";
    g.info.title = "Warp tiling: conflict-free 32x64 warp tiles";
    g.info.adds =
        "An explicit warp tile. Each warp owns 32x64 of the block tile, each lane an 8x8 block as 2x2 "
        "sub-tiles of 4x4 spaced 16 rows / 32 columns apart, so a warp's fragment loads read contiguous "
        "shared memory (4 wavefronts per k-step, 06 took 10), and FMAs run in serpentine order for register "
        "reuse.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
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
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_08_double_buffer;
    Rung g;
    g.info.name = "sgemm/08_double_buffer";
    g.info.family = "sgemm";
    g.info.title = "Double buffering: loads of tile k+1 overlap tile k";
    g.info.adds =
        "Two shared-memory stages. The global loads of k-tile kt+1 are issued into registers before the "
        "FMAs on tile kt and stored to the other stage after them, so their latency hides behind compute, "
        "and one __syncthreads per k-tile replaces two.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
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
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_09_cp_async;
    Rung g;
    g.info.name = "sgemm/09_cp_async";
    g.info.family = "sgemm";
    g.info.title = "cp.async: a 4-stage global-to-shared pipeline";
    g.info.adds =
        "A 4-stage cp.async pipeline. Tiles go global -> shared without passing through registers (A "
        "transposed by 4-byte copies, B in 16-byte ones), three k-tiles ahead of the FMAs: no staging "
        "registers or shared stores left in the k-loop, and edges zero-filled, so any M, N, K runs.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
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
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  {
    namespace r = sgemm_10_thread_tile_16x8;
    Rung g;
    g.info.name = "sgemm/10_thread_tile_16x8";
    g.info.family = "sgemm";
    g.info.title = "16x8 results per thread, 4 warps per block";
    g.info.adds =
        "Twice the work per thread, a 16x8 block of C (warp tile 64x64, 4 warps per 128x128 block): 6 "
        "shared loads feed 128 FMAs, and copies and loop overhead are shared by twice the FMAs. Half as many "
        "warps hide latency, so a tile's first slivers now load before tile k+3's copies issue.";
    g.info.block_m = r::kBM;
    g.info.block_n = r::kBN;
    g.info.threads = r::kThreads;
    g.info.shape_rule = r::kShapeRule;
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
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F32)};
    ladder.push_back(std::move(g));
  }
  return ladder;
}

}  // namespace gs::detail
