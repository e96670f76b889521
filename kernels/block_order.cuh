// Block order schemes at run time: which output tile the block with each blockIdx computes, for the rungs
// whose variants [order=...] choose the scheme (DESIGN.md `swizzle`, core/swizzle.h's launch_order, which
// this must equal block for block; the GPU test TilesFollowTheScheme checks it):
// - none: grid (N, M), tile_m = blockIdx.y, tile_n = blockIdx.x: row-major over C.
// - cutlass:L: grid (M << L, ceil(N / 2^L)), tile_m = bx >> L, tile_n = (by << L) + (bx & (2^L - 1)); a block
//   whose tile_n falls past N computes nothing.
// - triton:G: a 1-D grid of M * N, column-major inside bands of G tile rows (Triton's GROUP_SIZE_M = G).
// The scheme is a kernel argument, not a template parameter: every order of a rung is the same compiled
// kernel, so a variant costs no compile time and no registers, and the orders differ only in the grid.
#pragma once

#include <cuda_runtime.h>

namespace gs {

struct BlockOrder {
  enum Kind : int { kNone = 0, kCutlass = 1, kTriton = 2 };
  int kind = kNone;
  int param = 0;  // cutlass: L; triton: G
};

// A scheme packed into one int, for the launch<Probe, kOrder> template parameter of a rung's variant;
// kOrderDefault is the rung's own choice (its bare name).
inline constexpr int kOrderDefault = -1;
constexpr int order_code(int kind, int param) { return kind * 1024 + param; }
constexpr BlockOrder order_of_code(int code) { return BlockOrder{code / 1024, code % 1024}; }

// The launch grid of a scheme over tiles_m x tiles_n output tiles.
inline dim3 order_grid(BlockOrder o, int tiles_m, int tiles_n) {
  switch (o.kind) {
    case BlockOrder::kCutlass:
      return dim3(unsigned(tiles_m) << o.param, unsigned((tiles_n + (1 << o.param) - 1) >> o.param));
    case BlockOrder::kTriton:
      return dim3(unsigned(tiles_m) * unsigned(tiles_n));
    default:
      return dim3(unsigned(tiles_n), unsigned(tiles_m));
  }
}

// This block's tile; false when the block maps to none (the overhang of cutlass's last band).
__device__ __forceinline__ bool order_tile(BlockOrder o, int tiles_m, int tiles_n, int* tile_m, int* tile_n) {
  if (o.kind == BlockOrder::kCutlass) {
    *tile_m = int(blockIdx.x) >> o.param;
    *tile_n = (int(blockIdx.y) << o.param) + (int(blockIdx.x) & ((1 << o.param) - 1));
    return *tile_n < tiles_n;
  }
  if (o.kind == BlockOrder::kTriton) {
    const int pid = int(blockIdx.x);
    const int per_group = o.param * tiles_n;        // blocks in one band of G tile rows
    const int first_m = (pid / per_group) * o.param;
    const int rows = min(tiles_m - first_m, o.param);  // the last band may be shorter
    const int in_group = pid % per_group;
    *tile_m = first_m + in_group % rows;
    *tile_n = in_group / rows;
    return true;
  }
  *tile_m = int(blockIdx.y);
  *tile_n = int(blockIdx.x);
  return true;
}

// The swizzling rungs' own order: cutlass:L with the widest band of at most 2^max_log tile columns that is
// no wider than C (L = 0 for a single tile column). Where C is at most 2^max_log tiles wide and a power of two,
// that band is all of C: row-major order.
inline int banded_log_tile(int tiles_n, int max_log) {
  int l = 0;
  while (l < max_log && (2 << l) <= tiles_n) ++l;
  return l;
}

// The order a rung's launch<Probe, kOrder> uses: its variant's scheme, or the bare rung's own order.
template <int kOrder>
BlockOrder variant_order(BlockOrder own) {
  return kOrder == kOrderDefault ? own : order_of_code(kOrder);
}
// ... for the swizzling rungs, whose own order is banded_log_tile's bands.
template <int kOrder>
BlockOrder variant_order(int tiles_n, int max_log) {
  return variant_order<kOrder>(BlockOrder{BlockOrder::kCutlass, banded_log_tile(tiles_n, max_log)});
}

}  // namespace gs
