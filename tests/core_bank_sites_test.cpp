// A capture's shared-memory records read per site: sites grouped and totalled as the banks view lists
// them, ldmatrix's .num decided from what a record holds, and the per-bank schedule the view draws.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/bank_sites.h"

namespace gs {
namespace {

SmemAccess access(const std::string& kernel, const std::string& site, const std::string& kind, int width, int warp,
                  uint32_t stride, uint32_t base = 0) {
  SmemAccess a;
  a.kernel = kernel, a.site = site, a.kind = kind, a.width = width, a.warp = warp;
  for (int lane = 0; lane < 32; ++lane) a.addr[lane] = base + stride * static_cast<uint32_t>(lane);
  return a;
}

TEST(BankSites, GroupsBySiteInFirstSeenOrderAndSumsEveryExecution) {
  Capture c;
  c.smem.push_back(access("k", "As store", "store", 16, 0, 16));
  c.smem.push_back(access("k", "As load", "load", 4, 0, 128));  // 32 wavefronts, 31 conflicts
  c.smem.push_back(access("k", "As load", "load", 4, 0, 132));  // 1, 0
  c.smem.push_back(access("other", "As load", "load", 4, 0, 128));
  c.smem.push_back(access("k", "As store", "store", 16, 1, 16));
  c.smem.push_back(access("k", "As load", "load", 4, 1, 8));  // 2, 1 (2-way)
  const std::vector<SmemSite> s = smem_sites(c, "k");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "As store");
  EXPECT_EQ(s[0].accesses.size(), 2u);
  EXPECT_EQ(s[0].wavefronts, 8);  // 16-byte consecutive: 4 quarter-warp phases, twice
  EXPECT_EQ(s[0].ideal, 8);
  EXPECT_EQ(s[0].conflicts, 0);
  EXPECT_EQ(s[0].worst_way, 1);
  EXPECT_EQ(s[1].name, "As load");
  EXPECT_EQ(s[1].kind, "load");
  EXPECT_EQ(s[1].width, 4);
  EXPECT_EQ(s[1].op, SmemOp::Lds);
  ASSERT_EQ(s[1].accesses.size(), 3u);
  EXPECT_EQ(s[1].wavefronts, 32 + 1 + 2);
  EXPECT_EQ(s[1].ideal, 3);
  EXPECT_EQ(s[1].conflicts, 31 + 0 + 1);
  EXPECT_EQ(s[1].worst_way, 32);
  // Index: the execution's place among the same warp's executions of the site, in program order.
  EXPECT_EQ(s[1].accesses[0].index, 0);
  EXPECT_EQ(s[1].accesses[1].index, 1);
  EXPECT_EQ(s[1].accesses[2].index, 0);
  EXPECT_EQ(s[1].accesses[2].access.warp, 1);
  EXPECT_TRUE(smem_sites(c, "absent").empty());
}

TEST(BankSites, OneSiteNameWithTwoWidthsIsTwoInstructions) {
  Capture c;
  c.smem.push_back(access("k", "As cp.async", "cp.async", 16, 0, 16));
  c.smem.push_back(access("k", "As cp.async", "cp.async", 4, 0, 4));
  const std::vector<SmemSite> s = smem_sites(c, "k");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].width, 16);
  EXPECT_EQ(s[1].width, 4);
}

TEST(BankSites, LdmatrixCountFromTheSiteNameThenFromDistinctRows) {
  // Every lane its own 16-byte row: .x4.
  SmemAccess a = access("k", "As ldmatrix (frag)", "ldmatrix", 16, 0, 144);
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX4);
  // Lanes 16-31 repeat lanes 0-15's rows (lane % 16): .x2.
  for (int lane = 16; lane < 32; ++lane) a.addr[lane] = a.addr[lane - 16];
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX2);
  // Lanes 8-31 repeat lanes 0-7's (lane % 8), or take no part: .x1.
  for (int lane = 8; lane < 32; ++lane) a.addr[lane] = a.addr[lane % 8];
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX1);
  for (int lane = 8; lane < 32; ++lane) a.addr[lane].reset();
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX1);
  // The name wins where it says: mma_f16's "Bs ldmatrix.x4.trans".
  a.site = "Bs ldmatrix.x4.trans";
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX4);
  a.site = "ldmatrix.x2 B";
  EXPECT_EQ(smem_op_of(a), SmemOp::LdmatrixX2);
  // Anything else is lds of its width, stores and cp.async included.
  EXPECT_EQ(smem_op_of(access("k", "Bs store", "store", 16, 0, 16)), SmemOp::Sts);
  EXPECT_EQ(smem_op_of(access("k", "Bs cp.async", "cp.async", 16, 0, 16)), SmemOp::CpAsync);
}

TEST(BankSites, AnLdmatrixSiteIsTheWidestAnyExecutionLooks) {
  Capture c;
  SmemAccess x2 = access("k", "A frag", "ldmatrix", 16, 0, 16);
  for (int lane = 16; lane < 32; ++lane) x2.addr[lane] = x2.addr[lane - 16];
  c.smem.push_back(x2);
  c.smem.push_back(access("k", "A frag", "ldmatrix", 16, 0, 16));  // 32 distinct rows
  const std::vector<SmemSite> s = smem_sites(c, "k");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].op, SmemOp::LdmatrixX4);
  EXPECT_EQ(s[0].ideal, 4 + 4);  // both scheduled as .x4: 4 matrices each
}

TEST(BankSites, TheInstructionColumnSaysTransWhereTheSiteIsTransposed) {
  // The bank view's kind column and caption name the instruction a reader finds in the source.
  Capture c;
  c.smem.push_back(access("k", "Bs ldmatrix.x4.trans", "ldmatrix", 16, 0, 16));
  c.smem.push_back(access("k", "As ldmatrix.x4", "ldmatrix", 16, 0, 16));
  c.smem.push_back(access("k", "As ldmatrix (frag)", "ldmatrix", 16, 0, 16));
  c.smem.push_back(access("k", "Bs store", "store", 16, 0, 16));
  const std::vector<SmemSite> s = smem_sites(c, "k");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(site_instruction(s[0]), "ldmatrix.x4.trans");
  EXPECT_EQ(site_instruction(s[1]), "ldmatrix.x4");
  EXPECT_EQ(site_instruction(s[2]), "ldmatrix.x4");
  EXPECT_EQ(site_instruction(s[3]), "store");
}

TEST(BankSites, WorstWayCountsWordsPerBankWithinOnePhase) {
  std::vector<int> banks;
  // Stride 8 bytes: lanes i and i + 16 share bank 2i % 32 with different words: 2-way on the even banks.
  LaneOffsets o{};
  for (int lane = 0; lane < 32; ++lane) o[lane] = 8u * lane;
  EXPECT_EQ(worst_way(bank_report(o, 4, SmemOp::Lds), &banks), 2);
  ASSERT_EQ(banks.size(), 16u);
  for (size_t i = 0; i < banks.size(); ++i) EXPECT_EQ(banks[i], int(2 * i));
  // 16-byte consecutive: four phases of one wavefront each; a bank busy in every phase is no conflict.
  for (int lane = 0; lane < 32; ++lane) o[lane] = 16u * lane;
  EXPECT_EQ(worst_way(bank_report(o, 16, SmemOp::Lds), &banks), 1);
  EXPECT_EQ(banks.size(), 32u);
  // Stride 128: 32-way on bank 0.
  for (int lane = 0; lane < 32; ++lane) o[lane] = 128u * lane;
  EXPECT_EQ(worst_way(bank_report(o, 4, SmemOp::Lds), &banks), 32);
  EXPECT_EQ(banks, std::vector<int>{0});
  EXPECT_EQ(worst_way(BankReport{}), 1);
}

}  // namespace
}  // namespace gs
