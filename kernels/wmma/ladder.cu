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
    g.info.warps.warps_m = r::kWarpsM;
    g.info.warps.warps_n = r::kWarpsN;
    g.info.warps.warp_m = r::kTile;
    g.info.warps.warp_n = r::kTile;
    g.info.warps.block_k = r::kTile;
    g.info.warps.op = "wmma.m16n16k16.f16";
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
    g.info.family = "wmma";
    g.info.title = "Shared memory: 8 warps share staged A and B tiles";
    g.info.adds =
        "The block's 8 warps (2x4) stage a 32x32 tile of A and a 32x64 tile of B in shared memory with 16-byte "
        "loads and read their fragments from there: each A fragment serves the 4 warps of its row and each B "
        "fragment the 2 of its column, where 01 fetched every fragment from global.";
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
    g.info.family = "wmma";
    g.info.title = "Warp tile 4x2 fragments: 128x128 block tile";
    g.info.adds =
        "Each warp now computes 4x2 fragments (a 64x32 tile of C), so the block's 8 warps cover 128x128. Per "
        "k-step a warp loads 4 A and 2 B fragments for 8 mma_sync (0.75 loads per mma, was 2), and each global "
        "byte staged in shared memory feeds 3x more math (128x128 vs 32x64 tiles).";
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
    g.info.family = "wmma";
    g.info.title = "Double buffer filled by cp.async";
    g.info.adds =
        "Two shared buffers filled by cp.async, which copies global -> shared without registers or a stall: tile "
        "k+1 is in flight while the warps run mma_sync on tile k, and one barrier per tile replaces two. Still "
        "unpadded, so fragment loads conflict: 05 removes that limit.";
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
    g.info.family = "wmma";
    g.info.title = "Padded shared rows: conflict-free fragment loads";
    g.info.adds =
        "Shared rows padded by 8 halves (16 B). load_matrix_sync compiles to ldmatrix, which reads 8 rows of 16 B "
        "per 8x8 matrix; rows a multiple of 128 B apart all start in the same 4 banks, so 04's fragment loads were "
        "8-way (Bs) and 4-way (As) conflicted: the k-loop's real limit.";
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
    g.info.title = "Any M, N, K: zero-filled edge tiles, staged epilogue";
    g.info.adds =
        "Any M, N, K. Copies of edge tiles are predicated (cp.async with src-size 0 writes zeros, which add "
        "nothing to the sums), and the epilogue stages each row of fragments in shared memory so the warp writes "
        "only the part of C that exists. The k-loop is 05's: expect the same speed.";
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
    g.info.title = "Block-level split of K across warps (BMMA)";
    g.info.adds =
        "Block-level split of K. The 8 warps form 2 k-groups of 2x2 warps; both groups cover the whole 128x128 "
        "tile (64x64 per warp, 4x4 fragments) and each takes half of every 64-deep k-tile; at the end one group's "
        "partial sums are added to the other's through shared memory.";
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
    g.info.title = "3-stage cp.async pipeline, 128x256 tile, 64x64 warp tiles";
    g.info.adds =
        "A 3-stage cp.async pipeline (two k-tiles in flight while a third is computed, cp.async.wait_group 1) on a "
        "128x256 block tile of 8 warps with 64x64 warp tiles, 64-deep k-tiles: 8 fragment loads feed 16 mma_sync, "
        "and one barrier serves 64 mma_sync per warp. Any M, N, K as in 06.";
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
  return ladder;
}

}  // namespace gs::detail
