// The hopper rungs' arithmetic that needs no GPU (kernels/hopper/layout.h): descriptor encoding, the 128-byte
// swizzle TMA writes and wgmma reads, the wgmma.m64nNk16 accumulator layout and the grouped tile order,
// against cases worked out by hand from the PTX ISA's tables and figures.
#include <initializer_list>
#include <set>
#include <tuple>
#include <utility>

#include <gtest/gtest.h>

#include "core/layout.h"
#include "kernels/hopper/layout.h"

namespace gs::hopper {
namespace {

TEST(HopperDescriptor, FieldsLandInTheirBits) {
  // start 0x1000, LBO 8192, SBO 1024, 128B: 0x1000 >> 4 = 0x100 in bits 0-13, 8192 >> 4 = 0x200 in 16-29,
  // 1024 >> 4 = 0x40 in 32-45, 1 in 62-63.
  const uint64_t d = make_desc(0x1000, 8192, 1024, Swizzle::k128B);
  EXPECT_EQ(d, 0x100ull | 0x200ull << 16 | 0x40ull << 32 | 1ull << 62);
  EXPECT_EQ(d, 0x4000004002000100ull);
  // The PTX ISA's example (K-major, no swizzle, tf32): LBO 64 * 4 bytes encodes as 16, SBO 32 * 4 as 8.
  const DescFields f = decode_desc(make_desc(0, 64 * 4, 32 * 4, Swizzle::kNone));
  EXPECT_EQ(f.lbo >> 4, 16u);
  EXPECT_EQ(f.sbo >> 4, 8u);
  EXPECT_EQ(f.swizzle, Swizzle::kNone);
  // The MN-major 64B bf16 example: LBO 256 * 2 -> 32, SBO 512 * 2 -> 64, swizzle code 2.
  const uint64_t mn64 = make_desc(0, 256 * 2, 512 * 2, Swizzle::k64B);
  EXPECT_EQ(mn64 >> 16 & 0x3FFF, 32u);
  EXPECT_EQ(mn64 >> 32 & 0x3FFF, 64u);
  EXPECT_EQ(mn64 >> 62, 2u);
  EXPECT_EQ(static_cast<uint32_t>(Swizzle::k32B), 3u);
}

TEST(HopperDescriptor, RoundTripsAndDropsBitsBelow16Bytes) {
  for (uint32_t start : {0u, 16u, 1024u, 0x2a3f0u, 0x3fff0u}) {
    const DescFields f = decode_desc(make_desc(start, 16, 1024, Swizzle::k128B));
    EXPECT_EQ(f.start, start);
    EXPECT_EQ(f.lbo, 16u);
    EXPECT_EQ(f.sbo, 1024u);
    EXPECT_EQ(f.base_offset, 0u);
    EXPECT_EQ(f.swizzle, Swizzle::k128B);
  }
  EXPECT_EQ(decode_desc(make_desc(0x1238, 0, 0, Swizzle::kNone)).start, 0x1230u);  // 16-byte granules
  // The kernels step a k16 slice by adding the encoded byte offset to the descriptor: 32 bytes of A is +2,
  // 16 rows of N-major B (2048 bytes) is +128, with no carry out of the 14-bit field below 256 KB.
  const uint64_t a = make_desc(0x8000, 16, 1024, Swizzle::k128B);
  EXPECT_EQ(a + desc_field(3 * 32), make_desc(0x8000 + 96, 16, 1024, Swizzle::k128B));
  const uint64_t b = make_desc(0x30000, 8192, 1024, Swizzle::k128B);
  EXPECT_EQ(b + desc_field(3 * 2048), make_desc(0x30000 + 3 * 2048, 8192, 1024, Swizzle::k128B));
}

TEST(HopperSwizzle, Chunk128BIsXoredWithRowInAtom) {
  // Row r (128 B) of a 1024-byte atom keeps 16-byte chunk c at chunk c ^ (r % 8).
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 8; ++c) {
      for (uint32_t b : {0u, 2u, 14u}) {
        EXPECT_EQ(swizzle_offset(r * 128 + c * 16 + b, Swizzle::k128B), r * 128 + ((c ^ (r % 8)) * 16) + b)
            << r << " " << c << " " << b;
      }
    }
  }
  EXPECT_EQ(swizzle_offset(5 * 128 + 3 * 16, Swizzle::k128B), 5u * 128 + 6 * 16);  // 3 ^ 5 = 6
  EXPECT_EQ(swizzle_offset(1024 + 7 * 128, Swizzle::k128B), 1024u + 7 * 128 + 7 * 16);
}

TEST(HopperSwizzle, NarrowerModesPermuteFewerChunks) {
  // 64B: chunk (bits 4-5) ^= bits 7-8; 32B: bit 4 ^= bit 7; none: identity.
  EXPECT_EQ(swizzle_offset(3 * 128 + 1 * 16, Swizzle::k64B), 3u * 128 + (1 ^ 3) * 16);
  EXPECT_EQ(swizzle_offset(6 * 128 + 1 * 16, Swizzle::k64B), 6u * 128 + (1 ^ 2) * 16);  // row 6: bits 7-8 = 2
  EXPECT_EQ(swizzle_offset(1 * 128, Swizzle::k32B), 1u * 128 + 16);
  EXPECT_EQ(swizzle_offset(2 * 128, Swizzle::k32B), 2u * 128);  // bit 7 clear
  EXPECT_EQ(swizzle_offset(0x1234, Swizzle::kNone), 0x1234u);
  EXPECT_EQ(swizzle_span(Swizzle::k128B), 128u);
  EXPECT_EQ(swizzle_span(Swizzle::k32B), 32u);
}

TEST(HopperSwizzle, EveryLayoutIsAPermutationOfItsTile) {
  // 128 rows x 64 k of A, and 64 k x 256 n of B in four boxes: each element its own 2 bytes, inside the tile.
  std::set<uint32_t> a;
  for (int r = 0; r < 128; ++r) {
    for (int k = 0; k < 64; ++k) a.insert(kmajor_offset(r, k));
  }
  EXPECT_EQ(a.size(), 128u * 64);
  EXPECT_EQ(*a.rbegin(), 128u * 64 * 2 - 2);
  std::set<uint32_t> b;
  for (int k = 0; k < 64; ++k) {
    for (int n = 0; n < 256; ++n) b.insert(nmajor_offset(k, n, 64));
  }
  EXPECT_EQ(b.size(), 64u * 256);
  EXPECT_EQ(*b.rbegin(), 64u * 256 * 2 - 2);
  // Hand cases: A (9, 20): row 9 is row 1 of its atom, k 20 is half 4 of chunk 2 -> chunk 3, byte 8 of it.
  EXPECT_EQ(kmajor_offset(9, 20), 9u * 128 + 3 * 16 + 8);
  // B (k 10, n 130): box 2 (n 128..191) at 2 * 8192, row 10 (row 2 of its atom), n % 64 = 2 in chunk 0 -> 2.
  EXPECT_EQ(nmajor_offset(10, 130, 64), 2u * 8192 + 10 * 128 + 2 * 16 + 4);
}

TEST(HopperAccumulator, CellsFollowThePtxFigure) {
  // Thread 0: rows 0 and 8, columns 0, 1, then every 8 columns.
  EXPECT_EQ(wgmma_acc_cell(0, 0).row, 0);
  EXPECT_EQ(wgmma_acc_cell(0, 0).col, 0);
  EXPECT_EQ(wgmma_acc_cell(0, 1).col, 1);
  EXPECT_EQ(wgmma_acc_cell(0, 2).row, 8);
  EXPECT_EQ(wgmma_acc_cell(0, 2).col, 0);
  EXPECT_EQ(wgmma_acc_cell(0, 4).row, 0);
  EXPECT_EQ(wgmma_acc_cell(0, 4).col, 8);
  // Thread 5 (warp 0, group 1, t 1): row 1, columns 2, 3.
  EXPECT_EQ(wgmma_acc_cell(5, 0).row, 1);
  EXPECT_EQ(wgmma_acc_cell(5, 0).col, 2);
  EXPECT_EQ(wgmma_acc_cell(5, 3).row, 9);
  EXPECT_EQ(wgmma_acc_cell(5, 3).col, 3);
  // Thread 127 (warp 3, lane 31): rows 16 * 3 + 7 = 55 and 63, last register of n256 at column 255.
  EXPECT_EQ(wgmma_acc_cell(127, 127).row, 63);
  EXPECT_EQ(wgmma_acc_cell(127, 127).col, 255);
  EXPECT_EQ(wgmma_acc_cell(127, 0).row, 55);
  EXPECT_EQ(wgmma_acc_cell(127, 0).col, 6);
}

// The layout view's wgmma accumulator (core/layout.cpp, transcribed from the ISA on its own) is the formula
// the rungs' epilogues store by, register for register.
TEST(HopperAccumulator, LayoutViewDrawsWhatTheRungsStore) {
  const gs::MmaOp* op = gs::find_mma_op("wgmma.m64n16k16.f16");
  ASSERT_NE(op, nullptr);
  const gs::FragmentLayout l = gs::documented_layout(*op, gs::Operand::C);
  ASSERT_EQ(l.cells.size(), 128u * 8);
  for (const gs::LayoutCell& c : l.cells) {
    const Cell k = wgmma_acc_cell(c.lane, c.elem);
    EXPECT_EQ(c.row, k.row) << "thread " << c.lane << " register " << c.elem;
    EXPECT_EQ(c.col, k.col) << "thread " << c.lane << " register " << c.elem;
  }
}

TEST(HopperAccumulator, M64N256CoversTheTileOnce) {
  std::set<std::pair<int, int>> cells;
  for (int t = 0; t < 128; ++t) {
    for (int i = 0; i < 128; ++i) {
      const Cell c = wgmma_acc_cell(t, i);
      EXPECT_TRUE(c.row >= 0 && c.row < 64 && c.col >= 0 && c.col < 256) << t << " " << i;
      cells.insert({c.row, c.col});
    }
  }
  EXPECT_EQ(cells.size(), 64u * 256);
}

TEST(HopperTileOrder, GroupedWalksBandsColumnByColumn) {
  // 5 tile rows x 3 columns, bands of 2 rows: band 0 = rows 0-1, band 1 = rows 2-3, band 2 = row 4 alone.
  const std::pair<int, int> expect[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 0}, {3, 0},
                                        {2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 0}, {4, 1}, {4, 2}};
  for (int t = 0; t < 15; ++t) {
    const TileIndex x = grouped_tile(t, 5, 3, 2);
    EXPECT_EQ(std::make_pair(x.m, x.n), expect[t]) << t;
  }
  // A group of 1 is row-major; a group as tall as C is column-major.
  EXPECT_EQ(grouped_tile(4, 3, 4, 1).m, 1);
  EXPECT_EQ(grouped_tile(4, 3, 4, 1).n, 0);
  EXPECT_EQ(grouped_tile(4, 3, 4, 8).m, 1);
  EXPECT_EQ(grouped_tile(4, 3, 4, 8).n, 1);
}

TEST(HopperTileOrder, EveryTileOnceAtLadderSizes) {
  const std::initializer_list<std::tuple<int, int, int>> sizes = {{32, 16, 16}, {64, 32, 16}, {16, 32, 8}, {7, 3, 16}, {1, 1, 16}};
  for (auto [tm, tn, group] : sizes) {
    std::set<std::pair<int, int>> seen;
    for (int t = 0; t < tm * tn; ++t) {
      const TileIndex x = grouped_tile(t, tm, tn, group);
      EXPECT_TRUE(x.m >= 0 && x.m < tm && x.n >= 0 && x.n < tn);
      seen.insert({x.m, x.n});
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(tm) * tn) << tm << "x" << tn << " group " << group;
  }
}

}  // namespace
}  // namespace gs::hopper
