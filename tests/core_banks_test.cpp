// The shared-memory bank model against every row of the table measured with Nsight Compute
// (tests/data/bank_probe_h100.tsv), against the two numbers DESIGN.md records from an H200, and on
// hand-worked cases that show each rule of core/banks.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <set>
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

// 8 and 16 bytes: half- and quarter-warp phases unless lane pairs share addresses (packed).
TEST(Banks, EightByteConsecutiveIsTwoHalfWarpWavefronts) {
  const BankReport r = bank_report(strided(8), 8, SmemOp::Lds);
  expect_wcw(r, 2, 2, 0);
  EXPECT_FALSE(r.packed);
  EXPECT_EQ(r.phase_lanes, 16);
  EXPECT_EQ(r.wavefront_lanes[0], lanes(0, 16));
  EXPECT_EQ(r.wavefront_lanes[1], lanes(16, 16));
}

TEST(Banks, PackedLoadsServeTwiceTheLanesPerPhase) {
  // Lane pairs (2k, 2k+1) on one 8-byte address: 16 addresses, 128 bytes, one phase of all 32 lanes.
  const BankReport r8 = bank_report(each_lane([](int l) { return 8u * (l / 2); }), 8, SmemOp::Lds);
  expect_wcw(r8, 1, 1, 0);
  EXPECT_TRUE(r8.packed);
  EXPECT_EQ(r8.phase_lanes, 32);
  // The same 16 addresses with lanes l and l + 16 sharing cannot be packed: a wavefront per half-warp.
  const BankReport h = bank_report(each_lane([](int l) { return 8u * (l % 16); }), 8, SmemOp::Lds);
  expect_wcw(h, 2, 2, 0);
  EXPECT_FALSE(h.packed);
  // Every lane on one 16-byte address: packed into half-warps, 2 wavefronts, not 4 and not 1.
  const BankReport all = bank_report(each_lane([](int) { return 256u; }), 16, SmemOp::Lds);
  expect_wcw(all, 2, 2, 0);
  EXPECT_EQ(all.phase_lanes, 16);
  // Pairs (l, l ^ 2) count too; a partner that takes no part does not stop the packing.
  expect_wcw(bank_report(each_lane([](int l) { return 128u * (l % 2); }), 8, SmemOp::Lds), 2, 1, 1);
  LaneOffsets odd_off = strided(8);
  for (int lane = 1; lane < 32; lane += 2) odd_off[lane].reset();
  EXPECT_TRUE(bank_report(odd_off, 8, SmemOp::Lds).packed);
}

TEST(Banks, PhasesAreNotMergedEvenWhenBankDisjoint) {
  // Half 0 uses only banks 0-15, two words each; half 1 only banks 16-31. 2 + 2 wavefronts, not 2.
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
  // A 128-byte row pitch puts every lane on banks 0-3: 8 words per bank in each quarter-warp.
  expect_wcw(bank_report(strided(128), 16, SmemOp::Lds), 32, 4, 28);
  // Padding the pitch by 16 bytes shifts each row 4 banks: a quarter covers all 32 banks once.
  expect_wcw(bank_report(strided(144), 16, SmemOp::Lds), 4, 4, 0);
}

TEST(Banks, StoresAreNeverPacked) {
  // The same one-address warp as above, stored: one wavefront per half- or quarter-warp.
  const LaneOffsets all = each_lane([](int) { return 256u; });
  expect_wcw(bank_report(all, 4, SmemOp::Sts), 1, 1, 0);
  expect_wcw(bank_report(all, 8, SmemOp::Sts), 2, 2, 0);
  expect_wcw(bank_report(all, 16, SmemOp::Sts), 4, 4, 0);
  expect_wcw(bank_report(strided(128), 16, SmemOp::Sts), 32, 4, 28);
}

TEST(Banks, CpAsyncWritesEightLanesAWavefrontAndSerialisesOneWord) {
  // Consecutive 4-byte cp.async: 4 wavefronts, ideal 1 (Nsight Compute counts 3 conflicts).
  expect_wcw(bank_report(strided(4), 4, SmemOp::CpAsync), 4, 1, 3);
  expect_wcw(bank_report(each_lane([](int) { return 0u; }), 4, SmemOp::CpAsync), 32, 1, 31);
  expect_wcw(bank_report(strided(8), 8, SmemOp::CpAsync), 4, 2, 2);
  expect_wcw(bank_report(strided(16), 16, SmemOp::CpAsync), 4, 4, 0);
}

// The measured table: every row of tests/data/bank_probe_h100.tsv (bench/bank_probe.cu under Nsight
// Compute, one warp and one instruction per launch) against the model.
struct Row {
  std::string name, op;
  int width = 0, w = 0, c = 0, instructions = 0;
  LaneOffsets offsets{};
};

std::vector<Row> measured_rows(const std::string& file = "bank_probe_h100.tsv") {
  std::ifstream in(std::string(GEMMSCOPE_TEST_DATA) + "/" + file);
  EXPECT_TRUE(in) << "tests/data/" << file;
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("case\t", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    if (f.size() < 7) {
      ADD_FAILURE() << "short row: " << line;
      continue;
    }
    Row r;
    r.name = f[0], r.op = f[1], r.width = std::stoi(f[2]), r.w = std::stoi(f[3]), r.c = std::stoi(f[4]);
    r.instructions = std::stoi(f[5]);
    std::istringstream offs(f[6]);
    std::string err;
    EXPECT_TRUE(parse_lane_offsets(offs, &r.offsets, &err)) << r.name << ": " << err;
    rows.push_back(r);
  }
  return rows;
}

SmemOp row_op(const Row& r) {
  const std::optional<SmemOp> o = parse_smem_op(r.op.substr(0, r.op.find(".trans")));  // .trans: same banks
  EXPECT_TRUE(o) << r.name << ": op " << r.op;
  return o.value_or(SmemOp::Lds);
}

TEST(BanksMeasured, TableHoldsOneInstructionPerLaunchForEveryKind) {
  const std::vector<Row> rows = measured_rows();
  std::map<std::string, int> per_op;
  for (const Row& r : rows) {
    ++per_op[r.op.substr(0, r.op.find(".x"))];
    bool any = false;
    for (const auto& o : r.offsets) any = any || o.has_value();
    // ldmatrix is executed by every lane; the others skip the instruction when no lane is active.
    EXPECT_EQ(r.instructions, any || r.op.rfind("ldmatrix", 0) == 0 ? 1 : 0) << r.name;
  }
  EXPECT_GE(per_op["lds"], 100);
  EXPECT_GE(per_op["sts"], 100);
  EXPECT_GE(per_op["ldmatrix"], 80);
  EXPECT_GE(per_op["cp.async"], 40);
}

TEST(BanksMeasured, ModelEqualsNsightComputeForLoadsStoresAndLdmatrix) {
  int checked = 0;
  for (const Row& r : measured_rows()) {
    if (r.op == "cp.async") continue;
    const BankReport m = bank_report(r.offsets, r.width, row_op(r));
    EXPECT_EQ(m.wavefronts, r.w) << r.name;
    EXPECT_EQ(m.conflicts, r.c) << r.name;
    ++checked;
  }
  EXPECT_GE(checked, 300);
}

// 2-byte loads and stores (ld/st.shared.u16), measured on an H200 the same way (tests/data/bank_probe_u16_h200.tsv):
// strides, broadcasts, the halves of words and the mma_f16 rungs' B-fragment rows; every row equals the model.
TEST(BanksMeasured, ModelEqualsNsightComputeForTwoByteLoadsAndStores) {
  std::map<std::string, int> checked;
  int conflicted = 0;
  for (const Row& r : measured_rows("bank_probe_u16_h200.tsv")) {
    EXPECT_EQ(r.width, 2) << r.name;
    bool any = false;
    for (const auto& o : r.offsets) any = any || o.has_value();
    EXPECT_EQ(r.instructions, any ? 1 : 0) << r.name;
    const BankReport m = bank_report(r.offsets, r.width, row_op(r));
    EXPECT_EQ(m.wavefronts, r.w) << r.name;
    EXPECT_EQ(m.conflicts, r.c) << r.name;
    ++checked[r.op];
    conflicted += r.c > 0;
  }
  EXPECT_GE(checked["lds"], 45);
  EXPECT_GE(checked["sts"], 45);
  EXPECT_GE(conflicted, 20);  // the table is not all conflict-free rows a wrong model could also match
}

// cp.async: the rows the model does not reproduce, each group with its reason (banks.cpp, rule 6). Every
// other row must match: the hardware conflict counter always, and for 4 and 8 bytes the wavefronts too
// (for 16-byte cp.async.cg this ncu has only an instrumented wavefront count that is no bank schedule).
TEST(BanksMeasured, CpAsyncDiffersOnlyWhereTheNotesSay) {
  const std::set<std::string> differs = {
      // 4 and 8 bytes: consecutive lanes writing one word, and bank-disjoint quarters, take fewer
      // wavefronts on the hardware than quarters that serialise each word.
      "cp.async4_groups2_consecutive", "cp.async4_groups4_consecutive", "cp.async4_quarters_complement",
      "cp.async8_groups2_consecutive", "cp.async8_groups4_consecutive", "cp.async8_quarters_complement",
      // 16 bytes (.cg): the hardware counter reports no conflicts for any pattern.
      "cp.async16_stride32", "cp.async16_stride128", "cp.async16_all_one", "cp.async16_groups2_consecutive",
      "cp.async16_groups4_consecutive", "cp.async16_groups8_interleaved", "cp.async16_two_words_one_bank",
      "cp.async16_quarters_complement", "cp.async16_column_rows128", "cp.async16_every4th_stride128"};
  std::set<std::string> seen;
  int rows = 0;
  for (const Row& r : measured_rows()) {
    if (r.op != "cp.async") continue;
    ++rows;
    const BankReport m = bank_report(r.offsets, r.width, SmemOp::CpAsync);
    if (m.conflicts != r.c || (r.width != 16 && m.wavefronts != r.w)) seen.insert(r.name);
    if (r.width == 16) {
      EXPECT_EQ(r.c, 0) << r.name << ": the hardware now counts cp.async.cg conflicts";
    }
  }
  EXPECT_EQ(seen, differs);
  EXPECT_EQ(rows - int(differs.size()), 38);  // what bench/NOTES.md reports as matching
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
  EXPECT_EQ(phase_lanes(strided(4), 4, SmemOp::Lds), 32);
  EXPECT_EQ(phase_lanes(strided(8), 8, SmemOp::Lds), 16);
  EXPECT_EQ(phase_lanes(strided(16), 16, SmemOp::Lds), 8);
  EXPECT_EQ(phase_lanes(strided(16), 16, SmemOp::LdmatrixX2), 8);
  EXPECT_EQ(phase_lanes(strided(16), 16, SmemOp::Sts), 8);
  EXPECT_EQ(phase_lanes(strided(4), 4, SmemOp::CpAsync), 8);
}

TEST(Banks, RejectsWidthsTheHardwareDoesNotHave) {
  EXPECT_THROW(bank_report(strided(4), 12, SmemOp::Lds), std::invalid_argument);
  EXPECT_THROW(bank_report(strided(4), 1, SmemOp::Lds), std::invalid_argument);
  EXPECT_THROW(bank_report(strided(4), 2, SmemOp::CpAsync), std::invalid_argument);  // cp.async: 4, 8 or 16
  EXPECT_NO_THROW(bank_report(strided(2), 2, SmemOp::Lds));
  EXPECT_NO_THROW(bank_report(strided(2), 2, SmemOp::Sts));
}

// 16-bit loads (ld.shared.u16): one phase of 32 lanes; the two halves of a word are one word to its bank.
TEST(Banks, TwoByteLoadsShareWordsAndConflictOnWordsOfOneBank) {
  const BankReport consecutive = bank_report(strided(2), 2, SmemOp::Lds);  // 32 halves, 16 words
  EXPECT_EQ(consecutive.wavefronts, 1);
  EXPECT_EQ(consecutive.phase_lanes, 32);
  // mma_f16/01's B fragment: lane (g, t) reads row 2t of a 256-byte-pitch tile at column g: rows 0, 2, 4, 6
  // start on bank 0 and the 8 columns are 4 words, so each of banks 0-3 serves 4 words: 4-way.
  const BankReport bfrag = bank_report(each_lane([](int l) { return uint32_t(2 * (l % 4) * 256 + (l / 4) * 2); }), 2,
                                       SmemOp::Lds);
  EXPECT_EQ(bfrag.wavefronts, 4);
  EXPECT_EQ(bfrag.conflicts, 3);
}

TEST(Banks, OpNames) {
  for (SmemOp op : {SmemOp::Lds, SmemOp::Sts, SmemOp::CpAsync, SmemOp::LdmatrixX1, SmemOp::LdmatrixX2,
                    SmemOp::LdmatrixX4})
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
  // A wrong count names the first token that is not an offset, what most likely made it wrong: a comment line, or
  // offsets joined by commas (the count alone had said "got 34" and "got 1").
  EXPECT_FALSE(parse("# lanes\n" + tokens(32), &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 34; token 1 '#' is not a number");
  EXPECT_FALSE(parse("0,4,8", &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 1; token 1 '0,4,8' is not a number (offsets are separated by spaces or lines, "
                 "not commas)");
}

TEST(BanksParse, NotANumber) {
  LaneOffsets o;
  std::string err;
  // With 32 tokens each is a lane, numbered from 0 as the too-large message numbers them.
  for (const char* bad : {"x12", "12k", "0x", "0xg", "+4", "1.5", "-x"}) {
    std::string text = "0 4 8 12 " + std::string(bad) + " " + tokens(27, "16");
    EXPECT_FALSE(parse(text, &o, &err)) << bad;
    EXPECT_EQ(err, "lane 4: '" + std::string(bad) + "' is not a number");
  }
  // A negative offset is a number, and the message says what is wrong with it.
  EXPECT_FALSE(parse("0 4 8 12 -4 " + tokens(27, "16"), &o, &err));
  EXPECT_EQ(err, "lane 4: '-4' is negative (offsets are bytes from the start of shared memory)");
  EXPECT_FALSE(parse("-1 " + tokens(32), &o, &err));
  EXPECT_EQ(err, "expected 32 offsets, got 33; token 1 '-1' is negative (offsets are bytes from the start of shared "
                 "memory)");
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

  // An ldmatrix takes a row from each of its first 8, 16 or 32 lanes: "-" there is refused, past them ignored.
  std::istringstream gap("- " + tokens(31, "16"));
  EXPECT_FALSE(parse_lane_offsets(gap, 16, SmemOp::LdmatrixX4, &o, &err));
  EXPECT_EQ(err, "lane 0: '-', but ldmatrix.x4 reads a row address from lanes 0-31 (the whole warp executes an ldmatrix)");
  std::istringstream x2(tokens(15, "32") + " - " + tokens(16, "-"));
  EXPECT_FALSE(parse_lane_offsets(x2, 16, SmemOp::LdmatrixX2, &o, &err));
  EXPECT_EQ(err, "lane 15: '-', but ldmatrix.x2 reads a row address from lanes 0-15 (the whole warp executes an ldmatrix)");
  std::istringstream x1(tokens(8, "32") + " " + tokens(24, "-"));
  EXPECT_TRUE(parse_lane_offsets(x1, 16, SmemOp::LdmatrixX1, &o, &err)) << err;

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
