// Sector and request counting (core/gmem.h) on address sets worked out by hand, and the capture's gmem
// records through JSON and back.
#include <gtest/gtest.h>

#include "core/capture.h"
#include "core/gmem.h"

namespace gs {
namespace {

// One warp's access: lane l at byte offset f(l), `width` bytes each, all 32 lanes active.
template <class F>
GmemAccess warp_access(char matrix, int width, F f) {
  GmemAccess a;
  a.kernel = "k";
  a.site = std::string(1, matrix);
  a.matrix = matrix;
  a.kind = "load";
  a.width = width;
  for (int lane = 0; lane < 32; ++lane) a.offset[size_t(lane)] = f(lane);
  return a;
}

TEST(GmemCost, ConsecutiveFloatsFillFourSectorsOfOneLine) {
  const GmemCost c = gmem_cost(warp_access('A', 4, [](int l) { return int64_t(4 * l); }));
  EXPECT_EQ(c.lanes, 32);
  EXPECT_EQ(c.bytes, 128);
  EXPECT_EQ(c.sectors, 4);
  EXPECT_EQ(c.lines, 1);
  EXPECT_EQ(c.ideal_sectors, 4);
}

TEST(GmemCost, OneFloatOfEachOf32RowsTouches32Sectors) {
  // sgemm/01: lane l reads A[l][k] of a 4096-wide fp32 matrix, rows 16 KB apart.
  const GmemCost c = gmem_cost(warp_access('A', 4, [](int l) { return int64_t(l) * 4096 * 4; }));
  EXPECT_EQ(c.sectors, 32);
  EXPECT_EQ(c.lines, 32);
  EXPECT_EQ(c.ideal_sectors, 4);  // 128 distinct bytes would fit in 4
}

TEST(GmemCost, BroadcastIsOneSector) {
  const GmemCost c = gmem_cost(warp_access('B', 4, [](int) { return int64_t(96); }));
  EXPECT_EQ(c.bytes, 4);
  EXPECT_EQ(c.sectors, 1);
  EXPECT_EQ(c.ideal_sectors, 1);
}

TEST(GmemCost, Float4LoadsOfTwoRowsOf256Bytes) {
  // mma_f16/01's B: lanes 0-15 read 256 B of one row, lanes 16-31 of the next (rows 1 KB apart).
  const GmemCost c = gmem_cost(warp_access('B', 16, [](int l) { return int64_t(l / 16) * 1024 + 16 * (l % 16); }));
  EXPECT_EQ(c.bytes, 512);
  EXPECT_EQ(c.sectors, 16);
  EXPECT_EQ(c.lines, 4);
  EXPECT_EQ(c.ideal_sectors, 16);
}

TEST(GmemCost, MisalignedRunStraddlesOneMoreSector) {
  // 32 floats starting 8 bytes into a sector: 128 bytes over 5 sectors and 2 lines.
  const GmemCost c = gmem_cost(warp_access('A', 4, [](int l) { return int64_t(120 + 4 * l); }));
  EXPECT_EQ(c.sectors, 5);
  EXPECT_EQ(c.lines, 2);
  EXPECT_EQ(c.ideal_sectors, 4);
}

TEST(GmemCost, InactiveLanesAskForNothing) {
  GmemAccess a = warp_access('C', 8, [](int l) { return int64_t(8 * l); });
  for (int lane = 4; lane < 32; ++lane) a.offset[size_t(lane)].reset();
  const GmemCost c = gmem_cost(a);
  EXPECT_EQ(c.lanes, 4);
  EXPECT_EQ(c.sectors, 1);
  a.offset.fill(std::nullopt);
  EXPECT_EQ(gmem_cost(a).sectors, 0);
}

TEST(GmemSites, SumsRequestsAndSectorsPerSiteAndKind) {
  Capture cap;
  cap.gmem.push_back(warp_access('A', 4, [](int l) { return int64_t(l) * 4096; }));   // 32 sectors
  cap.gmem.push_back(warp_access('A', 4, [](int l) { return int64_t(4 * l); }));      // 4 sectors
  cap.gmem.push_back(warp_access('B', 4, [](int) { return int64_t(0); }));            // 1 sector
  GmemAccess st = warp_access('C', 4, [](int l) { return int64_t(4 * l); });
  st.kind = "store";
  cap.gmem.push_back(st);
  const std::vector<GmemSite> sites = gmem_sites(cap, "k");
  ASSERT_EQ(sites.size(), 3u);
  EXPECT_EQ(sites[0].name, "A");
  EXPECT_EQ(sites[0].requests, 2);
  EXPECT_EQ(sites[0].sectors, 36);
  EXPECT_DOUBLE_EQ(sites[0].sectors_per_request(), 18.0);
  EXPECT_DOUBLE_EQ(sites[0].ideal_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(*gmem_sectors_per_request(cap, "k", "load"), 37.0 / 3);
  EXPECT_DOUBLE_EQ(*gmem_sectors_per_request(cap, "k", "store"), 4.0);
  EXPECT_FALSE(gmem_sectors_per_request(cap, "k", "cp.async").has_value());
  EXPECT_TRUE(gmem_sites(cap, "other").empty());
}

TEST(GmemMatrix, CellAndRegionOfARowMajorMatrix) {
  const MatrixCell c = matrix_cell((3 * 100 + 7) * 2, 100, 2);  // halves, 100 per row
  EXPECT_EQ(c.row, 3);
  EXPECT_EQ(c.col, 7);
  // float4 loads: lane l reads A[l / 8][4 (l % 8) .. + 4) of a 64-wide matrix
  const GmemAccess a = warp_access('A', 16, [](int l) { return (int64_t(l / 8) * 64 + 4 * (l % 8)) * 4; });
  const MatrixRegion r = matrix_region({a}, 64, 4);
  EXPECT_EQ(r.row0, 0);
  EXPECT_EQ(r.row1, 3);
  EXPECT_EQ(r.col0, 0);
  EXPECT_EQ(r.col1, 31);
}

TEST(GmemCapture, RecordsSurviveTheRoundTripAndOldCapturesHaveNone) {
  Capture cap;
  cap.recorded_at = "2026-11-23T07:00:00Z";
  cap.tool = "gemmscope test";
  cap.device = {"NVIDIA H200", 9, 0, 132, 62914560, 233472, 1980, 3201, "580.159.04", "13.0"};
  GmemAccess a = warp_access('B', 16, [](int l) { return int64_t(16 * l); });
  a.kernel = "mma_f16/01_vectorized";
  a.iteration = -1;
  a.kind = "cp.async";
  a.offset[5].reset();
  cap.gmem.push_back(a);
  const Capture back = parse_capture(capture_to_json(cap), "x.json");
  ASSERT_EQ(back.gmem.size(), 1u);
  EXPECT_EQ(back.gmem[0].kernel, a.kernel);
  EXPECT_EQ(back.gmem[0].matrix, 'B');
  EXPECT_EQ(back.gmem[0].iteration, -1);
  EXPECT_EQ(back.gmem[0].kind, "cp.async");
  EXPECT_EQ(back.gmem[0].offset, a.offset);

  Capture empty = cap;
  empty.gmem.clear();
  std::string old = capture_to_json(empty);
  const size_t at = old.find("\"gmem\"");
  ASSERT_NE(at, std::string::npos);
  old.erase(at, old.find('\n', at) - at + 1);  // a capture written before gmem existed
  EXPECT_TRUE(parse_capture(old, "old.json").gmem.empty());

  std::string bad = capture_to_json(cap);
  bad.replace(bad.find("\"matrix\":\"B\""), 12, "\"matrix\":\"D\"");
  try {
    parse_capture(bad, "bad.json");
    FAIL() << "a record naming matrix D was accepted";
  } catch (const CaptureError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: gmem[0].matrix"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// The global-memory view's cp.async count is Nsight Compute's, from the same instructions' shared-memory records:
// one sector per (128-byte global line, 32-byte shared unit) pair. Over a rung's A and B sites it gives on the
// bundled capture the ratio Nsight Compute measured for the whole kernel (README, "Sectors per request": 21 for
// mma_f16/03, 18 for 08, 17.33 for mma_tf32/06, 19 for wmma/05), and 16 where the tile has no padding (mma_f16/09,
// whose step removes it: its explanation points at this view, which had shown 16 for 08 as well).
TEST(GmemSites, CpAsyncSitesCountSectorsAsNsightComputeDoes) {
  const Capture c = read_capture(std::string(GEMMSCOPE_ASSETS) + "/captures/h200.json.gz");
  const auto ncu = [&](const std::string& kernel) {
    double pairs = 0, requests = 0;
    for (const GmemSite& s : gmem_sites(c, kernel))
      if (s.kind == "cp.async") pairs += s.ncu_per_request * s.ncu_requests, requests += s.ncu_requests;
    return requests > 0 ? pairs / requests : -1.0;
  };
  EXPECT_NEAR(ncu("mma_f16/03_cp_async"), 21, 0.01);
  EXPECT_NEAR(ncu("mma_f16/08_ldmatrix"), 18, 0.01);
  EXPECT_NEAR(ncu("mma_f16/09_xor_permuted"), 16, 0.01);
  EXPECT_NEAR(ncu("mma_tf32/06_warp_64x64"), 17.33, 0.01);
  EXPECT_NEAR(ncu("wmma/05_padded_smem"), 19, 0.01);
  for (const GmemSite& s : gmem_sites(c, "mma_f16/08_ldmatrix")) {
    if (s.kind == "cp.async") {
      EXPECT_NEAR(s.sectors_per_request(), 16, 0.01) << "the bytes' own sectors stay";
      EXPECT_TRUE(s.ncu_other_warps.empty()) << s.name << ": every traced warp lands its rows alike";
    }
  }
  // wmma/08's B: warp 0's rows land on whole units (16), warp 7's 16 bytes into one (20), and the warps traced
  // average 18, what Nsight Compute measured over the kernel; warp 0 alone (16) had been the view's B.
  bool b_seen = false;
  for (const GmemSite& s : gmem_sites(c, "wmma/08_multistage")) {
    if (s.kind != "cp.async" || s.name != "B") continue;
    b_seen = true;
    EXPECT_NEAR(s.ncu_warp0, 16, 0.01);
    ASSERT_EQ(s.ncu_other_warps.size(), 1u);
    EXPECT_EQ(s.ncu_other_warps[0].first, 7);
    EXPECT_NEAR(s.ncu_other_warps[0].second, 20, 0.01);
    EXPECT_NEAR(s.ncu_per_request, 18, 0.01);
  }
  EXPECT_TRUE(b_seen);
  // XOR-permuted rows (wmma/11) put each warp's lanes at other offsets, but neighbours still share a unit: no
  // warp counts otherwise.
  for (const GmemSite& s : gmem_sites(c, "wmma/11_ldmatrix_xor")) {
    if (s.kind == "cp.async") {
      EXPECT_TRUE(s.ncu_other_warps.empty()) << s.name;
    }
  }
}

}  // namespace
}  // namespace gs
