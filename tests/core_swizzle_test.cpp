// Launch-order models against orders worked out by hand from DESIGN.md's `swizzle` formulas, CUTLASS's
// GemmIdentityThreadblockSwizzle and Triton's matmul tutorial.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/smem_swizzle.h"
#include "core/swizzle.h"

namespace gs {
namespace {

SwizzleScheme scheme(const char* s) {
  SwizzleScheme sc;
  std::string err;
  if (!parse_swizzle_scheme(s, &sc, &err)) throw std::runtime_error(err);
  return sc;
}

using Tiles = std::vector<std::pair<int, int>>;  // (tile_m, tile_n) in launch order

Tiles tiles_of(const std::vector<LaunchedTile>& order) {
  Tiles t;
  for (const LaunchedTile& l : order) t.emplace_back(l.tile_m, l.tile_n);
  return t;
}

std::vector<int> launches_of(const std::vector<LaunchedTile>& order) {
  std::vector<int> v;
  for (const LaunchedTile& l : order) v.push_back(l.launch);
  return v;
}

TEST(Swizzle, EverySchemeVisitsEveryTileOnce) {
  const std::pair<int, int> shapes[] = {{1, 1}, {4, 4}, {5, 3}, {3, 7}, {9, 9}, {16, 10}, {1, 13}, {13, 1}};
  const char* schemes[] = {"none", "cutlass:0", "cutlass:1", "cutlass:2", "cutlass:3",
                           "triton:1", "triton:2", "triton:3", "triton:5", "triton:100"};
  for (auto [m, n] : shapes) {
    for (const char* s : schemes) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " " + s);
      const std::vector<LaunchedTile> order = launch_order(m, n, scheme(s));
      ASSERT_EQ(static_cast<int>(order.size()), m * n);
      std::set<std::pair<int, int>> seen;
      int last_launch = -1;
      for (const LaunchedTile& t : order) {
        EXPECT_GE(t.tile_m, 0);
        EXPECT_LT(t.tile_m, m);
        EXPECT_GE(t.tile_n, 0);
        EXPECT_LT(t.tile_n, n);
        EXPECT_TRUE(seen.insert({t.tile_m, t.tile_n}).second) << "tile " << t.tile_m << "," << t.tile_n << " twice";
        EXPECT_GT(t.launch, last_launch);  // launch order, each launch once
        last_launch = t.launch;
      }
    }
  }
}

TEST(Swizzle, NoneIsRowMajor) {
  const std::vector<LaunchedTile> order = launch_order(2, 3, scheme("none"));
  EXPECT_EQ(tiles_of(order), (Tiles{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(launches_of(order), (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

TEST(Swizzle, CutlassZeroIsNoneTransposed) {
  // L = 0: grid (M, N), tile_m = bx, tile_n = by: blockIdx.x walks down a column of C (CUTLASS puts M on
  // x), so launch order is column-major, where none (N on x) is row-major. The two agree only through
  // a transpose: cutlass:0 on MxN visits (i, j) in the order none on NxM visits (j, i).
  const std::vector<LaunchedTile> c0 = launch_order(2, 3, scheme("cutlass:0"));
  EXPECT_EQ(tiles_of(c0), (Tiles{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
  EXPECT_EQ(launches_of(c0), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (auto [m, n] : {std::pair{5, 3}, std::pair{4, 4}, std::pair{1, 7}}) {
    Tiles transposed;
    for (auto [i, j] : tiles_of(launch_order(n, m, scheme("none")))) transposed.emplace_back(j, i);
    EXPECT_EQ(tiles_of(launch_order(m, n, scheme("cutlass:0"))), transposed) << m << "x" << n;
    // One Triton group covering every row is the same column-major walk.
    EXPECT_EQ(tiles_of(launch_order(m, n, scheme("triton:8"))), transposed) << m << "x" << n;
  }
  // With one row or one column of tiles there is nothing to reorder.
  EXPECT_EQ(tiles_of(launch_order(1, 6, scheme("cutlass:0"))), tiles_of(launch_order(1, 6, scheme("none"))));
}

TEST(Swizzle, Cutlass1On4x4ByHand) {
  // grid (8, 2). by = 0 covers columns 0-1: bx = 0..7 -> (bx >> 1, bx & 1); by = 1 columns 2-3.
  const std::vector<LaunchedTile> order = launch_order(4, 4, scheme("cutlass:1"));
  EXPECT_EQ(tiles_of(order), (Tiles{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1},
                                    {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 2}, {2, 3}, {3, 2}, {3, 3}}));
  EXPECT_EQ(launches_of(order), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(Swizzle, CutlassOverhangingBlocksMapToNoTile) {
  // 3x5 tiles, L = 1: grid (6, 3) = 18 blocks for 15 tiles. Band by = 2 holds column 4 and a phantom
  // column 5: blocks 13, 15 and 17 launch, find tile_n = 5 >= N and do nothing.
  const std::vector<LaunchedTile> order = launch_order(3, 5, scheme("cutlass:1"));
  ASSERT_EQ(order.size(), 15u);
  EXPECT_EQ(launches_of(order), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16}));
  EXPECT_EQ(tiles_of(std::vector<LaunchedTile>(order.end() - 3, order.end())), (Tiles{{0, 4}, {1, 4}, {2, 4}}));
  // L = 2 on 2x3: grid (8, 1); bx & 3 = 3 is column 3, past N = 3, in every row.
  EXPECT_EQ(launches_of(launch_order(2, 3, scheme("cutlass:2"))), (std::vector<int>{0, 1, 2, 4, 5, 6}));
}

TEST(Swizzle, Triton2On4x4ByHand) {
  // Groups of G = 2 rows x 4 columns = 8 programs, column-major inside a group.
  const std::vector<LaunchedTile> order = launch_order(4, 4, scheme("triton:2"));
  EXPECT_EQ(tiles_of(order), (Tiles{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3},
                                    {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {2, 3}, {3, 3}}));
  EXPECT_EQ(launches_of(order), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(Swizzle, TritonShortLastGroupFollowsTheCurrentTutorial) {
  // 5x1 tiles, G = 3: group 1 holds rows 3-4 (group_size_m = 2). The tutorial's current form takes the
  // row from the index inside the group, (pid % 3) % 2 -> rows 3, 4; its first versions used pid % 2,
  // which gives 4, 3 here.
  EXPECT_EQ(tiles_of(launch_order(5, 1, scheme("triton:3"))), (Tiles{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}));
  // G = 1 is row-major, the same as none; G >= M is one group: column-major over all of C.
  EXPECT_EQ(tiles_of(launch_order(3, 4, scheme("triton:1"))), tiles_of(launch_order(3, 4, scheme("none"))));
  EXPECT_EQ(tiles_of(launch_order(2, 2, scheme("triton:100"))), (Tiles{{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
}

TEST(Swizzle, FootprintOfTheTutorialExample) {
  // Triton's tutorial: 9x9 tiles, the first 9 programs. Row-major reads 1 A row-panel and 9 B
  // column-panels (90 blocks at 9 blocks per panel); grouped with G = 3 reads 3 + 3 (54 blocks).
  const auto none = launch_order(9, 9, scheme("none"));
  const auto grouped = launch_order(9, 9, scheme("triton:3"));
  const Footprint fn = window_footprint(none, 0, 9), fg = window_footprint(grouped, 0, 9);
  EXPECT_EQ(fn.a_panels, 1);
  EXPECT_EQ(fn.b_panels, 9);
  EXPECT_EQ(fg.a_panels, 3);
  EXPECT_EQ(fg.b_panels, 3);
  EXPECT_EQ(9 * fn.total(), 90);
  EXPECT_EQ(9 * fg.total(), 54);
  // cutlass:2: the first 9 blocks are rows 0-1 x columns 0-3, then row 2 column 0.
  const Footprint fc = window_footprint(launch_order(9, 9, scheme("cutlass:2")), 0, 9);
  EXPECT_EQ(fc.a_panels, 3);
  EXPECT_EQ(fc.b_panels, 4);
}

TEST(Swizzle, FootprintWindowIsClamped) {
  const auto order = launch_order(9, 9, scheme("none"));
  const Footprint tail = window_footprint(order, 80, 9);  // only the last tile is left
  EXPECT_EQ(tail.a_panels, 1);
  EXPECT_EQ(tail.b_panels, 1);
  EXPECT_EQ(window_footprint(order, 0, 0).total(), 0);
  EXPECT_EQ(window_footprint(order, 200, 5).total(), 0);
  const Footprint all = window_footprint(order, -3, 1000);
  EXPECT_EQ(all.a_panels, 9);
  EXPECT_EQ(all.b_panels, 9);
}

TEST(Swizzle, Csv) {
  EXPECT_EQ(swizzle_csv(launch_order(2, 2, scheme("none"))), "launch,tile_m,tile_n\n0,0,0\n1,0,1\n2,1,0\n3,1,1\n");
  EXPECT_EQ(swizzle_csv(launch_order(1, 3, scheme("cutlass:1"))), "launch,tile_m,tile_n\n0,0,0\n1,0,1\n2,0,2\n");
  EXPECT_EQ(swizzle_csv({}), "launch,tile_m,tile_n\n");
}

TEST(SwizzleParse, Schemes) {
  SwizzleScheme s;
  std::string err;
  ASSERT_TRUE(parse_swizzle_scheme("none", &s, &err));
  EXPECT_EQ(s.kind, SwizzleScheme::Kind::None);
  ASSERT_TRUE(parse_swizzle_scheme("cutlass:3", &s, &err));
  EXPECT_EQ(s.kind, SwizzleScheme::Kind::Cutlass);
  EXPECT_EQ(s.param, 3);
  ASSERT_TRUE(parse_swizzle_scheme("cutlass:0", &s, &err));
  ASSERT_TRUE(parse_swizzle_scheme("cutlass:8", &s, &err));
  ASSERT_TRUE(parse_swizzle_scheme("triton:8", &s, &err));
  EXPECT_EQ(s.kind, SwizzleScheme::Kind::Triton);
  EXPECT_EQ(s.param, 8);
  for (const char* name : {"none", "cutlass:0", "cutlass:2", "triton:1", "triton:16"}) {
    ASSERT_TRUE(parse_swizzle_scheme(name, &s, &err)) << name;
    EXPECT_EQ(swizzle_scheme_name(s), name);
  }
}

TEST(SwizzleParse, SchemeErrors) {
  SwizzleScheme s;
  std::string err;
  for (const char* bad : {"cutlass:9", "cutlass:", "cutlass:-1", "cutlass:x", "cutlass:1.5"}) {
    EXPECT_FALSE(parse_swizzle_scheme(bad, &s, &err)) << bad;
    EXPECT_EQ(err, "scheme '" + std::string(bad) + "': cutlass:L needs L (log2 of the swizzle tile) from 0 to 8");
  }
  for (const char* bad : {"triton:0", "triton:", "triton:-2", "triton:99999999999"}) {
    EXPECT_FALSE(parse_swizzle_scheme(bad, &s, &err)) << bad;
    EXPECT_EQ(err, "scheme '" + std::string(bad) + "': triton:G needs G (GROUP_SIZE_M) from 1 to 65535");
  }
  for (const char* bad : {"", "None", "cutlass", "CUTLASS:1", "triton", "hilbert:2", "none:1"}) {
    EXPECT_FALSE(parse_swizzle_scheme(bad, &s, &err)) << bad;
    EXPECT_EQ(err, "unknown swizzle scheme '" + std::string(bad) + "' (expected none, cutlass:L or triton:G)");
  }
}

TEST(SwizzleParse, Tiles) {
  int m = 0, n = 0;
  std::string err;
  ASSERT_TRUE(parse_tiles("4x16", &m, &n, &err)) << err;
  EXPECT_EQ(m, 4);
  EXPECT_EQ(n, 16);
  ASSERT_TRUE(parse_tiles("1024x1024", &m, &n, &err)) << err;
  for (const char* bad : {"4", "4x", "x4", "4x4x4", "-1x4", "4X4", "a x b", "4 x4", ""}) {
    EXPECT_FALSE(parse_tiles(bad, &m, &n, &err)) << bad;
    EXPECT_EQ(err, "tiles '" + std::string(bad) + "' must be MxN, two whole numbers, e.g. 8x16");
  }
  EXPECT_FALSE(parse_tiles("0x4", &m, &n, &err));
  EXPECT_EQ(err, "tiles '0x4': M and N must be from 1 to 65535");
  EXPECT_FALSE(parse_tiles("70000x1", &m, &n, &err));
  EXPECT_EQ(err, "tiles '70000x1': M and N must be from 1 to 65535");
  EXPECT_FALSE(parse_tiles("2048x1024", &m, &n, &err));
  EXPECT_EQ(err, "tiles '2048x1024': 2097152 tiles is more than 1048576");
  EXPECT_EQ(m, 1024);  // untouched by the failures
}

TEST(SwizzleParse, LaunchOrderRejectsWhatParseRejects) {
  EXPECT_THROW(launch_order(0, 4, scheme("none")), std::invalid_argument);
  EXPECT_THROW(launch_order(2048, 1024, scheme("none")), std::invalid_argument);
  EXPECT_THROW(launch_order(4, 4, SwizzleScheme{SwizzleScheme::Kind::Cutlass, 9}), std::invalid_argument);
  EXPECT_THROW(launch_order(4, 4, SwizzleScheme{SwizzleScheme::Kind::Triton, 0}), std::invalid_argument);
}

// ---- Measured launches ------------------------------------------------------------------------

// A 4x4 grid run in `scheme`'s order on 4 SMs in four waves of 4 blocks, each block 10 ns: wave w starts at
// 10 w (+5 ns of clock offset), block i of it on SM i.
Capture four_waves(const SwizzleScheme& scheme) {
  Capture c;
  for (const LaunchedTile& t : launch_order(4, 4, scheme)) {
    BlockRecord b;
    b.kernel = "test/01";
    b.launch = t.launch, b.tile_m = t.tile_m, b.tile_n = t.tile_n;
    b.smid = t.launch % 4;
    b.start_ns = 1005 + uint64_t(t.launch / 4) * 10;
    b.end_ns = b.start_ns + 10;
    c.blocks.push_back(b);
  }
  std::reverse(c.blocks.begin(), c.blocks.end());  // the capture's order is not the launch order
  BlockRecord other = c.blocks.front();
  other.kernel = "test/02";
  c.blocks.push_back(other);
  return c;
}

TEST(TracedLaunch, SortsByLaunchAndMeasuresTheGrid) {
  const TracedLaunch l = traced_launch(four_waves(scheme("none")), "test/01");
  ASSERT_EQ(l.blocks.size(), 16u);
  for (size_t i = 0; i < l.blocks.size(); ++i) EXPECT_EQ(l.blocks[i].launch, int(i));
  EXPECT_EQ(l.tiles_m, 4);
  EXPECT_EQ(l.tiles_n, 4);
  EXPECT_EQ(l.sms, 4);
  EXPECT_EQ(l.t0, 1005u);
  EXPECT_EQ(l.duration, 40u);
  EXPECT_TRUE(traced_launch(four_waves(scheme("none")), "test/99").empty());
}

// Two blocks at once on an SM each hold a lane of its row, in start order, and a lane freed is taken again; a
// persistent CTA whose next tile starts before its last one ends keeps its one lane.
TEST(TracedLaunch, BlocksAtOnceOnAnSmTakeLanes) {
  Capture c;
  const auto add = [&](int launch, int bx, int sm, uint64_t start, uint64_t end) {
    BlockRecord b;
    b.kernel = "test/01", b.launch = launch, b.bx = bx, b.tile_n = launch, b.smid = sm;
    b.start_ns = start, b.end_ns = end;
    c.blocks.push_back(b);
  };
  add(0, 0, 0, 0, 100);   // SM 0: lane 0
  add(1, 1, 0, 10, 50);   // SM 0, while 0 runs: lane 1
  add(2, 2, 0, 60, 120);  // SM 0, lane 1 free again at 50: lane 1
  add(3, 3, 0, 100, 130); // lane 0 free at 100 (ends count as free): lane 0
  add(4, 4, 1, 0, 10);    // SM 1 alone: lane 0
  TracedLaunch l = traced_launch(c, "test/01");
  EXPECT_EQ(l.lanes, 2);
  EXPECT_EQ(l.lane, (std::vector<int>{0, 1, 1, 0, 0}));
  // One CTA (bx 0) on SM 0 walks three tiles, each starting before the last ends: one CTA, one lane.
  c.blocks.clear();
  add(0, 0, 0, 0, 100);
  add(1, 0, 0, 90, 200);
  add(2, 0, 0, 190, 300);
  add(3, 1, 1, 0, 300);
  l = traced_launch(c, "test/01");
  ASSERT_TRUE(l.persistent());
  EXPECT_EQ(l.lanes, 1);
  EXPECT_EQ(l.lane, (std::vector<int>{0, 0, 0, 0}));
}

// Row-major: the second wave (t in [10, 20)) is tile row 1, reading 1 A panel and all 4 B panels; in
// triton:2 order it is the second band's first two columns' ... rows 2-3, columns 0-1: 2 + 2 panels.
TEST(TracedLaunch, RunningFootprintByHand) {
  const TracedLaunch none = traced_launch(four_waves(scheme("none")), "test/01");
  WaveFootprint f = running_footprint(none, 12, 128, 64, 1024, 2);
  EXPECT_EQ(f.running, 4);
  EXPECT_EQ(f.a_panels, 1);
  EXPECT_EQ(f.b_panels, 4);
  EXPECT_EQ(f.a_bytes, 1 * 128 * 1024 * 2);
  EXPECT_EQ(f.b_bytes, 4 * 64 * 1024 * 2);
  EXPECT_EQ(running_footprint(none, 40, 128, 64, 1024, 2).running, 0);  // all done
  const TracedLaunch grouped = traced_launch(four_waves(scheme("triton:2")), "test/01");
  f = running_footprint(grouped, 12, 128, 64, 1024, 2);
  EXPECT_EQ(f.running, 4);
  EXPECT_EQ(f.a_panels + f.b_panels, 4);  // 2 rows and 2 columns of a band of 2: half row-major's 5
  EXPECT_EQ(f.a_panels, 2);
}

TEST(TracedLaunch, IdentifiesTheSchemeThatMapsEveryBlock) {
  for (const char* s : {"none", "cutlass:0", "cutlass:1", "triton:2"})
    EXPECT_EQ(identify_order(traced_launch(four_waves(scheme(s)), "test/01")), s) << s;
  // Column-major is cutlass:0, not a Triton group as tall as C (which walks the same way).
  EXPECT_EQ(identify_order(traced_launch(four_waves(scheme("triton:64")), "test/01")), "cutlass:0");
  // On 4 columns cutlass:2's band is all of C, the row-major order: the simplest name that fits is given.
  EXPECT_EQ(identify_order(traced_launch(four_waves(scheme("cutlass:2")), "test/01")), "none");
  // A band wider than C (cutlass:3 on 4 columns: numbers 0-3, 8-11, ...) walks the tiles row by row.
  EXPECT_EQ(identify_order(traced_launch(four_waves(scheme("cutlass:3")), "test/01")), "none");
  // A block on a tile no scheme puts it on: no name.
  Capture c = four_waves(scheme("none"));
  std::swap(c.blocks[0].tile_n, c.blocks[1].tile_n);
  EXPECT_EQ(identify_order(traced_launch(c, "test/01")), "");
}


// The bank view's swizzle atoms, against the pattern worked out by hand from cute's Swizzle<B,4,3> (bits 4.. of
// a byte offset XOR bits 7..): 128B row 1 swaps chunk pairs (chunk 0 in slot 1), row 5 chunk 2 lands in slot 7;
// 64B puts two rows in a line and XORs chunks by the line index; 32B four rows per line, halves swapped in line 1.
TEST(SwizzleModes, AtomsPlaceChunksAsTheDescriptorsRead) {
  const std::vector<SwizzleModeAtom> atoms = swizzle_mode_atoms();
  ASSERT_EQ(atoms.size(), 5u);
  auto cell = [](const SwizzleModeAtom& a, int row, int chunk) {
    for (const SwizzleModeAtom::Cell& c : a.cells)
      if (c.row == row && c.chunk == chunk) return std::make_pair(c.line, c.slot);
    return std::make_pair(-1, -1);
  };
  const SwizzleModeAtom &b128 = atoms[0], &b64 = atoms[1], &b32 = atoms[2], &none = atoms[3], &flat = atoms[4];
  EXPECT_EQ(b128.name, "128B");
  EXPECT_EQ(b128.desc_field, 1);
  EXPECT_EQ(cell(b128, 1, 0), std::make_pair(1, 1));
  EXPECT_EQ(cell(b128, 5, 2), std::make_pair(5, 7));
  EXPECT_EQ(cell(b128, 7, 7), std::make_pair(7, 0));
  EXPECT_EQ(b64.lines, 4);
  EXPECT_EQ(cell(b64, 3, 1), std::make_pair(1, 4));  // line 1, second row of it, chunk 1 ^ 1 = 0 -> slot 4 + 0
  EXPECT_EQ(cell(b64, 6, 0), std::make_pair(3, 3));
  EXPECT_EQ(b32.lines, 2);
  EXPECT_EQ(cell(b32, 4, 0), std::make_pair(1, 1));
  EXPECT_EQ(cell(b32, 3, 1), std::make_pair(0, 7));
  EXPECT_EQ(none.row_bytes, 16);
  EXPECT_EQ(cell(none, 6, 0), std::make_pair(0, 6));
  EXPECT_EQ(flat.desc_field, -1);
  EXPECT_EQ(cell(flat, 6, 3), std::make_pair(6, 3));
  // A core matrix (8 rows of one chunk column) reads 8 slots in every descriptor mode, one in flat rows.
  for (const SwizzleModeAtom& a : atoms) {
    ASSERT_EQ(a.cells.size(), size_t(8 * a.chunks_per_row)) << a.name;
    std::set<std::pair<int, int>> places;
    for (const SwizzleModeAtom::Cell& c : a.cells) places.insert({c.line, c.slot});
    EXPECT_EQ(places.size(), a.cells.size()) << a.name << ": two chunks in one place";
    for (int slots : a.slots_per_column) EXPECT_EQ(slots, a.desc_field < 0 ? 1 : 8) << a.name;
  }
}

}  // namespace
}  // namespace gs
