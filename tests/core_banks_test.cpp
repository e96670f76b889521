// The shared-memory bank model against numbers worked out by hand from the bank rules (32 banks of
// 4-byte words; lds phases of 32, 16 or 8 lanes for 4-, 8- or 16-byte accesses; one phase per ldmatrix
// 8x8 matrix) and against the two numbers DESIGN.md records from Nsight Compute on an H200.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/banks.h"

namespace gs {
namespace {

LaneOffsets each_lane(const std::function<uint32_t(int)>& f) {
  LaneOffsets o{};
  for (int lane = 0; lane < 32; ++lane) o[lane] = f(lane);
  return o;
}

LaneOffsets strided(uint32_t stride) {
  return each_lane([stride](int lane) { return stride * static_cast<uint32_t>(lane); });
}

std::vector<int> lanes(int first, int count, int step = 1) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i) v.push_back(first + i * step);
  return v;
}

void expect_wcw(const BankReport& r, int w, int i, int c) {
  EXPECT_EQ(r.wavefronts, w);
  EXPECT_EQ(r.ideal, i);
  EXPECT_EQ(r.conflicts, c);
  EXPECT_EQ(static_cast<int>(r.wavefront_lanes.size()), w);
}

// DESIGN.md, "Measuring": Nsight Compute on an H200, one warp of 4-byte loads.
TEST(Banks, DesignStride128IsThirtyTwoWavefronts) {
  const BankReport r = bank_report(strided(128), 4, SmemOp::Lds);
  expect_wcw(r, 32, 1, 31);  // every lane in bank 0, 32 distinct words
  for (int k = 0; k < 32; ++k) EXPECT_EQ(r.wavefront_lanes[k], std::vector<int>{k}) << "wavefront " << k;
}

TEST(Banks, DesignStride132IsConflictFree) {
  // 132 bytes = 33 words: lane i lands in bank (33 i) % 32 = i.
  const BankReport r = bank_report(strided(132), 4, SmemOp::Lds);
  expect_wcw(r, 1, 1, 0);
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 32));
}

TEST(Banks, ConsecutiveWordsAndTwoWayStride) {
  expect_wcw(bank_report(strided(4), 4, SmemOp::Lds), 1, 1, 0);
  // Stride 8: word 2i, so lanes i and i + 16 share bank 2i % 32 with different words.
  const BankReport r = bank_report(strided(8), 4, SmemOp::Lds);
  expect_wcw(r, 2, 1, 1);  // 128 distinct bytes: ideal 1
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 16));
  EXPECT_EQ(r.wavefront_lanes[1], lanes(16, 16));
}

TEST(Banks, BroadcastOfOneWordIsFree) {
  const BankReport r = bank_report(each_lane([](int) { return 64u; }), 4, SmemOp::Lds);
  expect_wcw(r, 1, 1, 0);
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 32));
  // Lanes 0 and 1 on bytes 0 and 2 of the same word: still one word, still broadcast.
  LaneOffsets two = strided(4);
  two[1] = 0;
  expect_wcw(bank_report(two, 4, SmemOp::Lds), 1, 1, 0);
}

TEST(Banks, TwoWordsInOneBankTakeTwoWavefronts) {
  // Even lanes read word 0, odd lanes word 32: both bank 0; each word is broadcast to its half.
  const BankReport r = bank_report(each_lane([](int l) { return l % 2 ? 128u : 0u; }), 4, SmemOp::Lds);
  expect_wcw(r, 2, 1, 1);
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 16, 2));
  EXPECT_EQ(r.wavefront_lanes[1], lanes(1, 16, 2));
}

TEST(Banks, InactiveLanesAskForNothing) {
  LaneOffsets o = strided(128);
  for (int lane = 4; lane < 32; ++lane) o[lane].reset();
  const BankReport r = bank_report(o, 4, SmemOp::Lds);
  expect_wcw(r, 4, 1, 3);
  EXPECT_EQ(r.wavefront_lanes, (std::vector<std::vector<int>>{{0}, {1}, {2}, {3}}));

  LaneOffsets one{};
  one[17] = 4096;
  const BankReport r1 = bank_report(one, 16, SmemOp::Lds);
  expect_wcw(r1, 1, 1, 0);
  EXPECT_EQ(r1.wavefront_lanes[0], std::vector<int>{17});

  expect_wcw(bank_report(LaneOffsets{}, 4, SmemOp::Lds), 0, 0, 0);  // no request at all
}

// 64-bit: half-warps are separate phases of up to 128 bytes each.
TEST(Banks, EightByteConsecutiveIsTwoWavefrontsNoConflict) {
  const BankReport r = bank_report(strided(8), 8, SmemOp::Lds);
  expect_wcw(r, 2, 2, 0);  // 256 bytes: ideal 2, one per half-warp
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 16));
  EXPECT_EQ(r.wavefront_lanes[1], lanes(16, 16));
}

TEST(Banks, EightByteStride16IsTwoWayInEachHalf) {
  // Lane i reads words 4i, 4i+1; in a half-warp lanes i and i + 8 share banks 4i % 32 and 4i % 32 + 1.
  const BankReport r = bank_report(strided(16), 8, SmemOp::Lds);
  expect_wcw(r, 4, 2, 2);
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 8));
  EXPECT_EQ(r.wavefront_lanes[1], lanes(8, 8));
  EXPECT_EQ(r.wavefront_lanes[2], lanes(16, 8));
  EXPECT_EQ(r.wavefront_lanes[3], lanes(24, 8));
}

TEST(Banks, EightByteConflictsDoNotPairAcrossHalfWarps) {
  // Half 0 uses only banks 0-15, two words each; half 1 only banks 16-31, two words each. Over the whole
  // warp every bank holds 2 words, but the halves are separate phases and cannot share a wavefront:
  // 2 + 2 wavefronts, not 2.
  const BankReport r = bank_report(each_lane([](int l) {
                                     const uint32_t half = l / 16, i = l % 16;
                                     return half * 64 + (i / 8) * 128 + (i % 8) * 8;
                                   }),
                                   8, SmemOp::Lds);
  expect_wcw(r, 4, 2, 2);
}

// 128-bit: quarter-warps are separate phases.
TEST(Banks, SixteenByteConsecutiveIsFourWavefronts) {
  const BankReport r = bank_report(strided(16), 16, SmemOp::Lds);
  expect_wcw(r, 4, 4, 0);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(r.wavefront_lanes[q], lanes(8 * q, 8));
}

TEST(Banks, SixteenByteColumnWalkIsEightWayPerQuarter) {
  // A 128-byte row pitch puts every lane on banks 0-3: 8 words per bank in each quarter-warp. The
  // developer-forum LDS.128 thread reports the same 32 wavefronts per instruction for its bad layout.
  expect_wcw(bank_report(strided(128), 16, SmemOp::Lds), 32, 4, 28);
  // Padding the pitch by 16 bytes shifts each row 4 banks: a quarter covers all 32 banks once.
  expect_wcw(bank_report(strided(144), 16, SmemOp::Lds), 4, 4, 0);
}

TEST(Banks, SixteenBytePhasesAreNotMergedEvenWhenTheyReadTheSameBytes) {
  // Every quarter-warp reads the same 128 bytes. Ideal by bytes is 1; the model charges one wavefront
  // per phase. This is where Nsight Compute may report fewer (banks.cpp, "may differ").
  expect_wcw(bank_report(each_lane([](int l) { return 16u * (l % 8); }), 16, SmemOp::Lds), 4, 1, 3);
}

// A 16-row x 64-byte fp16 tile (32 halves per row) read by ldmatrix.x4 as a 16x16 A fragment:
// lanes 0-15 give rows 0-15 at byte column 0, lanes 16-31 rows 0-15 at byte column 16.
uint32_t tile_offset(int row, int chunk, bool xor_swizzle) {
  // XOR swizzle of 16-byte chunks within a 64-byte row: chunk ^ ((row / 2) % 4), so the 8 rows of one
  // matrix land on 8 different 16-byte bank groups.
  const int c = xor_swizzle ? chunk ^ ((row >> 1) & 3) : chunk;
  return static_cast<uint32_t>(row * 64 + c * 16);
}

LaneOffsets ldmatrix_a_rows(bool xor_swizzle) {
  return each_lane([xor_swizzle](int l) { return tile_offset(l % 16, l / 16, xor_swizzle); });
}

TEST(Banks, LdmatrixX4XorSwizzledIsConflictFree) {
  const BankReport r = bank_report(ldmatrix_a_rows(true), 16, SmemOp::LdmatrixX4);
  expect_wcw(r, 4, 4, 0);
  for (int m = 0; m < 4; ++m) EXPECT_EQ(r.wavefront_lanes[m], lanes(8 * m, 8)) << "matrix " << m;
}

TEST(Banks, LdmatrixX4RowMajor64BytePitchConflicts) {
  // Row r starts at word 16 r: rows 0, 2, 4, 6 share banks 0-3 and rows 1, 3, 5, 7 banks 16-19, so each
  // matrix needs 4 wavefronts.
  const BankReport r = bank_report(ldmatrix_a_rows(false), 16, SmemOp::LdmatrixX4);
  expect_wcw(r, 16, 4, 12);
  EXPECT_EQ(r.wavefront_lanes[0], (std::vector<int>{0, 1}));  // rows 0 and 1 (banks 0-3, 16-19) go first
  // A 128-byte pitch puts all 8 rows on banks 0-3: 8 per matrix.
  expect_wcw(bank_report(each_lane([](int l) { return 128u * (l % 16) + 16u * (l / 16); }), 16,
                         SmemOp::LdmatrixX4),
             32, 4, 28);
}

TEST(Banks, LdmatrixReadsOnlyTheLanesOfItsMatrices) {
  // Lanes 16-31 point at rows 128 bytes apart: all on banks 0-3, 8-way in each of matrices 2 and 3.
  LaneOffsets o = ldmatrix_a_rows(true);
  for (int lane = 16; lane < 32; ++lane) o[lane] = 128u * static_cast<uint32_t>(lane);
  expect_wcw(bank_report(o, 16, SmemOp::LdmatrixX2), 2, 2, 0);   // .x2 never reads lanes 16-31
  expect_wcw(bank_report(o, 16, SmemOp::LdmatrixX4), 18, 4, 14);  // 1 + 1 + 8 + 8
  for (int lane = 8; lane < 16; ++lane) o[lane] = 128u * static_cast<uint32_t>(lane);
  expect_wcw(bank_report(o, 16, SmemOp::LdmatrixX1), 1, 1, 0);   // .x1 reads lanes 0-7 only
  expect_wcw(bank_report(o, 16, SmemOp::LdmatrixX2), 9, 2, 7);
}

TEST(Banks, LdmatrixIgnoresWidthAndBroadcastsRepeatedRows) {
  // All 32 lanes at one 16-byte row: each matrix reads 4 words once.
  const LaneOffsets same = each_lane([](int) { return 256u; });
  expect_wcw(bank_report(same, 4, SmemOp::LdmatrixX4), 4, 4, 0);
  expect_wcw(bank_report(same, 12, SmemOp::LdmatrixX1), 1, 1, 0);  // width is not an ldmatrix property
}

// What a picture of the access draws: per wavefront, each bank's word and the lanes it serves.
TEST(Banks, WavefrontBanksSayWhichWordEachBankReadsForWhichLanes) {
  // Stride 8 bytes: wavefront 0 serves lanes 0-15 (words 0, 2, .., 30 in banks 0, 2, .., 30), wavefront 1
  // lanes 16-31 (words 32, .., 62 in the same banks); odd banks idle in both.
  const BankReport r = bank_report(strided(8), 4, SmemOp::Lds);
  ASSERT_EQ(r.wavefront_banks.size(), 2u);
  EXPECT_EQ(r.wavefront_phase, (std::vector<int>{0, 0}));
  for (int w = 0; w < 2; ++w)
    for (int bank = 0; bank < 32; ++bank) {
      const BankSlot& s = r.wavefront_banks[w][bank];
      if (bank % 2) {
        EXPECT_TRUE(s.lanes.empty()) << w << " " << bank;
        continue;
      }
      EXPECT_EQ(s.word, uint32_t(32 * w + bank)) << w << " " << bank;
      EXPECT_EQ(s.lanes, std::vector<int>{16 * w + bank / 2}) << w << " " << bank;
    }
  // A broadcast is one slot serving every lane.
  const BankReport b = bank_report(each_lane([](int) { return 64u; }), 4, SmemOp::Lds);
  ASSERT_EQ(b.wavefront_banks.size(), 1u);
  EXPECT_EQ(b.wavefront_banks[0][16].word, 16u);
  EXPECT_EQ(b.wavefront_banks[0][16].lanes, lanes(0, 32));
  // 16 bytes per lane: each lane fills 4 consecutive banks; quarter-warps are phases 0-3.
  const BankReport q = bank_report(strided(16), 16, SmemOp::Lds);
  EXPECT_EQ(q.wavefront_phase, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(q.wavefront_banks[1][5].lanes, std::vector<int>{9});  // lane 9: bytes 144-159, banks 4-7
  EXPECT_EQ(q.wavefront_banks[1][5].word, 37u);
  // ldmatrix: one phase per matrix, the slots naming the lane that supplied the row.
  const BankReport m = bank_report(ldmatrix_a_rows(false), 16, SmemOp::LdmatrixX4);
  ASSERT_EQ(m.wavefront_phase.size(), 16u);
  for (int w = 0; w < 16; ++w) EXPECT_EQ(m.wavefront_phase[w], w / 4) << w;
  EXPECT_EQ(m.wavefront_banks[0][0].lanes, std::vector<int>{0});
  EXPECT_EQ(m.wavefront_banks[0][16].lanes, std::vector<int>{1});
  EXPECT_EQ(m.wavefront_banks[1][0].lanes, std::vector<int>{2});
  EXPECT_EQ(phase_lanes(4, SmemOp::Lds), 32);
  EXPECT_EQ(phase_lanes(8, SmemOp::Lds), 16);
  EXPECT_EQ(phase_lanes(16, SmemOp::Lds), 8);
  EXPECT_EQ(phase_lanes(16, SmemOp::LdmatrixX2), 8);
}

TEST(Banks, RejectsWidthsTheHardwareDoesNotHave) {
  EXPECT_THROW(bank_report(strided(4), 12, SmemOp::Lds), std::invalid_argument);
  EXPECT_THROW(bank_report(strided(4), 2, SmemOp::Lds), std::invalid_argument);
}

TEST(Banks, OpNames) {
  for (SmemOp op : {SmemOp::Lds, SmemOp::LdmatrixX1, SmemOp::LdmatrixX2, SmemOp::LdmatrixX4})
    EXPECT_EQ(parse_smem_op(smem_op_name(op)), op);
  EXPECT_EQ(parse_smem_op("ldmatrix.x4"), SmemOp::LdmatrixX4);
  EXPECT_FALSE(parse_smem_op("ldmatrix"));
  EXPECT_FALSE(parse_smem_op("LDS"));
  EXPECT_EQ(ldmatrix_matrices(SmemOp::LdmatrixX2), 2);
  EXPECT_EQ(ldmatrix_matrices(SmemOp::Lds), 0);
  EXPECT_EQ(bank_of(132), 1);
  EXPECT_EQ(bank_of(128 + 124), 31);
}

// Parsing what `gemmscope banks` reads from stdin.
std::string tokens(int n, const std::string& tok = "0") {
  std::string s;
  for (int i = 0; i < n; ++i) s += tok + (i % 8 == 7 ? "\n" : " ");
  return s;
}

bool parse(const std::string& text, LaneOffsets* out, std::string* err) {
  std::istringstream in(text);
  return parse_lane_offsets(in, out, err);
}

TEST(BanksParse, DecimalHexAndInactive) {
  std::string text = "0 0x84 - 0X108\n\t396";
  for (int i = 5; i < 32; ++i) text += " " + std::to_string(132 * i);
  LaneOffsets o;
  std::string err;
  ASSERT_TRUE(parse(text, &o, &err)) << err;
  EXPECT_EQ(o[0], 0u);
  EXPECT_EQ(o[1], 132u);
  EXPECT_FALSE(o[2]);
  EXPECT_EQ(o[3], 264u);
  EXPECT_EQ(o[4], 396u);
  EXPECT_EQ(o[31], 132u * 31);
  expect_wcw(bank_report(o, 4, SmemOp::Lds), 1, 1, 0);
}

TEST(BanksParse, WrongCount) {
  LaneOffsets o;
  std::string err;
  EXPECT_FALSE(parse(tokens(31), &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 31");
  EXPECT_FALSE(parse(tokens(33), &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 33");
  EXPECT_FALSE(parse("", &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 0");
}

TEST(BanksParse, NotANumber) {
  LaneOffsets o;
  std::string err;
  for (const char* bad : {"x12", "-4", "12k", "0x", "0xg", "+4", "1.5"}) {
    std::string text = "0 4 8 12 " + std::string(bad) + " " + tokens(27, "16");
    EXPECT_FALSE(parse(text, &o, &err)) << bad;
    EXPECT_EQ(err, "token 5 '" + std::string(bad) + "' is not a number");
  }
}

TEST(BanksParse, TooLarge) {
  LaneOffsets o;
  std::string err;
  EXPECT_FALSE(parse("0 0x39000 " + tokens(30), &o, &err));  // 0x39000 = 228 KiB, one past the end
  EXPECT_EQ(err, "lane 1: offset 0x39000 is too large (shared memory ends at 233472)");
  EXPECT_FALSE(parse(tokens(31) + "99999999999999999999999", &o, &err));  // must not wrap around
  EXPECT_EQ(err.rfind("lane 31: offset 99999", 0), 0u) << err;
  EXPECT_TRUE(parse(tokens(31) + "233468", &o, &err)) << err;  // the last word
}

TEST(BanksParse, AlignmentFollowsWidthAndOp) {
  const std::string text = "0 4 8 6 " + tokens(28, "16");
  LaneOffsets o;
  std::string err;
  std::istringstream in4(text);
  EXPECT_FALSE(parse_lane_offsets(in4, 4, SmemOp::Lds, &o, &err));
  EXPECT_EQ(err, "lane 3: offset 6 is not aligned to 4 bytes");

  std::istringstream in8("0 8 16 " + tokens(29, "4"));
  EXPECT_FALSE(parse_lane_offsets(in8, 8, SmemOp::Lds, &o, &err));
  EXPECT_EQ(err, "lane 3: offset 4 is not aligned to 8 bytes");

  // ldmatrix rows are 16 bytes and must be 16-byte aligned whatever --width says.
  std::istringstream inm("0 16 8 " + tokens(29, "32"));
  EXPECT_FALSE(parse_lane_offsets(inm, 4, SmemOp::LdmatrixX4, &o, &err));
  EXPECT_EQ(err, "lane 2: offset 8 is not aligned to 16 bytes");

  std::istringstream ok(tokens(31, "-") + " 48");
  ASSERT_TRUE(parse_lane_offsets(ok, 16, SmemOp::Lds, &o, &err)) << err;
  EXPECT_EQ(o[31], 48u);
  EXPECT_FALSE(o[0]);
}

TEST(BanksParse, FailureLeavesOutputAlone) {
  LaneOffsets o{};
  o[0] = 7;
  std::string err;
  EXPECT_FALSE(parse(tokens(31), &o, &err));
  EXPECT_EQ(o[0], 7u);
  std::istringstream in("6 " + tokens(31));
  EXPECT_FALSE(parse_lane_offsets(in, 4, SmemOp::Lds, &o, &err));
  EXPECT_EQ(o[0], 7u);
}

}  // namespace
}  // namespace gs
