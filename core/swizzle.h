// Threadblock launch-order models: which output tile the block with each launch index computes under a
// threadblock swizzle. The hardware starts blocks roughly in launch order (blockIdx.x fastest), so
// blocks close in launch order run together and share what they load from A and B through L2; a swizzle
// changes which tiles are close. `gemmscope swizzle` prints these orders, the swizzle view draws them
// and compares them with the launch order the probes trace (BlockRecord).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/capture.h"

namespace gs {

// One launched block that maps to a tile. launch = blockIdx.x + blockIdx.y * gridDim.x, the index the
// probes record; tile_m indexes the A row-panel it reads, tile_n the B column-panel.
struct LaunchedTile {
  int launch = 0, tile_m = 0, tile_n = 0;
};

struct SwizzleScheme {
  enum class Kind { None, Cutlass, Triton };
  Kind kind = Kind::None;
  int param = 0;  // cutlass: L, log2 of the tile (CUTLASS's log_tile); triton: G, GROUP_SIZE_M; none: 0
};

inline constexpr int kMaxCutlassLog = 8;          // CUTLASS's get_log_tile picks 0..3; 8 leaves room to explore
inline constexpr int kMaxTilesPerSide = 65535;    // gridDim.y's limit, which `none` puts M on
inline constexpr long kMaxTiles = 1L << 20;       // M * N: a million tiles is a 64k x 64k GEMM of 64x64 tiles
inline constexpr int kMaxTritonGroup = kMaxTilesPerSide;

// "none", "cutlass:L" (0 <= L <= kMaxCutlassLog), "triton:G" (1 <= G <= kMaxTritonGroup). On failure
// returns false and sets *error to one line naming the bad part.
bool parse_swizzle_scheme(std::string_view s, SwizzleScheme* out, std::string* error);
std::string swizzle_scheme_name(const SwizzleScheme& s);  // the spelling parse accepts: "cutlass:2"

// "MxN" output tiles (M along the rows of C, N along its columns), each 1..kMaxTilesPerSide and
// M * N <= kMaxTiles.
bool parse_tiles(std::string_view s, int* tiles_m, int* tiles_n, std::string* error);

// Every launched block that maps to a tile, in launch order (DESIGN.md, `swizzle`):
// - none: grid (N, M); tile_m = launch / N, tile_n = launch % N: row-major over C.
// - cutlass:L: grid (M << L, ceil(N / 2^L)); tile_m = bx >> L, tile_n = (by << L) + (bx & (2^L - 1)):
//   C is cut into bands of 2^L columns; a band's 2^L tiles of one row launch together, then the same band
//   of the next row, down all M rows, before the next band. Blocks whose tile_n falls past N (N not a
//   multiple of 2^L) compute nothing and are left out; launch numbers still count them, as the hardware
//   does. CUTLASS's GemmIdentityThreadblockSwizzle (get_grid_shape, get_tile_offset(log_tile)).
// - triton:G: 1-D grid of M * N, the grouped ordering of Triton's matmul tutorial with GROUP_SIZE_M = G:
//   column-major inside bands of G rows of C.
// Each tile appears exactly once. Throws std::invalid_argument for tiles or a scheme outside the limits.
std::vector<LaunchedTile> launch_order(int tiles_m, int tiles_n, const SwizzleScheme& scheme);

// "launch,tile_m,tile_n" header and one line per entry, in the order given.
std::string swizzle_csv(const std::vector<LaunchedTile>& order);

// What a window of `count` consecutive entries of `order` (from index `first`, clamped to the end) reads:
// distinct A row-panels (tile_m) and B column-panels (tile_n). Blocks that run together share these
// through L2, so fewer panels per window means more reuse: for 9x9 tiles and a window of 9, none reads
// 1 + 9 panels and triton:3 reads 3 + 3, the tutorial's 90 vs 54 blocks loaded with K = 9 tiles deep.
struct Footprint {
  int a_panels = 0, b_panels = 0;
  int total() const { return a_panels + b_panels; }
};
Footprint window_footprint(const std::vector<LaunchedTile>& order, int first, int count);

// ---- Measured launches ------------------------------------------------------------------------
// One traced launch of a kernel as the launch-order view reads it: its blocks sorted by launch index,
// times relative to the first block's start (%globaltimer ns, comparable across SMs).
struct TracedLaunch {
  std::vector<BlockRecord> blocks;  // by launch index
  int tiles_m = 0, tiles_n = 0;     // the tile grid the blocks cover (largest tile index + 1)
  int sms = 0;                      // largest SM id + 1
  uint64_t t0 = 0;                  // first start
  uint64_t duration = 0;            // last end - first start
  int ctas = 0;                     // distinct CTAs (bx, by) that ran the tiles
  int tiles = 0;                    // distinct tiles (tile_m, tile_n) the records cover
  // Per record: its index among the records of its tile (in launch order) and their count; {0, 1} unless split().
  std::vector<std::pair<int, int>> pieces;
  // Where split(): the tiles cut into pieces, and the CTAs that computed only whole tiles and only pieces (the two
  // launches of mma_f16/13, whose trace numbers their CTAs apart).
  int split_tiles = 0, whole_ctas = 0, piece_ctas = 0;
  // Where two_launches(): the time between the last whole tile's end and the first piece's start, when no SM
  // computes (the second kernel's launch); 0 where they overlap.
  uint64_t launch_gap = 0;
  // A persistent kernel: fewer CTAs than tiles, each CTA walking several tiles (its records are per tile, from
  // probe.tile(), with bx the CTA). Views then speak of tiles, not blocks.
  bool persistent() const { return ctas > 0 && size_t(ctas) < blocks.size(); }
  // Tiles split along k (stream-K, mma_f16/13): several CTAs each computed a piece of some tile's k-tiles, and each
  // piece has its own record, so there are more records than tiles.
  bool split() const { return tiles > 0 && size_t(tiles) < blocks.size(); }
  // Whole tiles and pieces computed by CTAs of their own: two kernels, one for each (mma_f16/13).
  bool two_launches() const {
    return split() && whole_ctas > 0 && piece_ctas > 0 && whole_ctas + piece_ctas == ctas;
  }
  bool empty() const { return blocks.empty(); }
  // CTAs resident on one SM at once: per record, the lane its CTA held on its SM (0 ..), given in start order to
  // the first lane its SM had free; `lanes` is the most any SM used. A persistent CTA's overlapping tiles share
  // its lane (one CTA, not two).
  std::vector<int> lane;
  int lanes = 1;
};
// The capture's blocks of `kernel`, or an empty launch. Records with an end before their start are kept with
// end = start (a reader never divides by a negative span).
TracedLaunch traced_launch(const Capture& c, const std::string& kernel);

// What the blocks running at time t (ns after t0) read: the distinct A row-panels and B column-panels, and
// their bytes for a K-deep GEMM with tiles of block_m x block_n and elements of elem_bytes (A's panel is
// block_m x K, B's K x block_n). The working set a wave keeps in L2.
struct WaveFootprint {
  int running = 0;
  int a_panels = 0, b_panels = 0;
  int64_t a_bytes = 0, b_bytes = 0;
  int64_t bytes() const { return a_bytes + b_bytes; }
};
WaveFootprint running_footprint(const TracedLaunch& l, uint64_t t, int block_m, int block_n, int k, int elem_bytes);

// Which scheme of launch_order() visits the tiles in the order the traced blocks launched (by launch index):
// "none", "cutlass:L" (L from 0, column-major, up to kMaxCutlassLog) or "triton:G" (G a power of two up to 64), the
// first that fits;
// "" when none does. Only the order counts, not the numbers: cutlass:L with a band as wide as C is "none".
// What the launch-order view calls the rung's order.
std::string identify_order(const TracedLaunch& l);

}  // namespace gs
