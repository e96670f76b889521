// Capture JSON: what `record` writes, the window reads back unchanged; what it cannot read, it names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/capture.h"
#include "core/files.h"

namespace gs {
namespace {

Capture sample_capture() {
  Capture c;
  c.recorded_at = "2026-11-21T07:00:00Z";
  c.tool = "gemmscope test";
  c.device = {"NVIDIA H100 80GB HBM3", 9, 0, 132, 52428800, 233472, 1980, 2619, "580.159.04", "13.0"};
  c.peaks.push_back({"fp32", 51.4, "TFLOP/s", "measured: cuBLAS SGEMM pedantic 4096^3"});
  RunRecord r;
  r.kernel = "sgemm/01_naive";
  r.m = 4096, r.n = 2048, r.k = 1024;
  r.dtype = "f32";
  r.median_ms = 12.5;
  r.tflops = 1.37;
  r.cublas_tflops = 51.0;
  r.rel_err = 3.2e-7;
  r.samples_ms = {12.4, 12.5, 12.6};
  c.runs.push_back(r);
  FragmentLayout l{"wmma.m16n16k16.f16", "C", "traced", 16, 16, {}};
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < 8; ++e) l.cells.push_back({lane, e, (lane * 8 + e) / 16, (lane * 8 + e) % 16});
  c.layouts.push_back(l);
  SmemAccess s;
  s.kernel = "mma_f16/09_ldmatrix";
  s.site = "ldmatrix A";
  s.kind = "ldmatrix";
  s.width = 16;
  for (int lane = 0; lane < 32; ++lane)
    if (lane % 3) s.addr[lane] = uint32_t(lane * 144);
  c.smem.push_back(s);
  c.blocks.push_back({"sgemm/01_naive", 5, 1, 2, 2, 1, 77, 1000000000123ull, 1000000050000ull});
  for (int launch = 0; launch < 5; ++launch)  // the rest of a 3x2 grid: no tile index reaches the 6 records
    c.blocks.push_back({"sgemm/01_naive", launch, launch % 2, launch / 2, launch / 2, launch % 2, launch,
                        1000000000000ull, 1000000040000ull});
  c.stages.push_back({"sgemm/01_naive", 5, 3, "k-loop", 100, 9000});
  return c;
}

std::string rejection(const std::string& text) {
  try {
    parse_capture(text, "bad.json");
  } catch (const CaptureError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Capture, JsonRoundTripKeepsEveryField) {
  const Capture c = sample_capture();
  const std::string text = capture_to_json(c);
  const Capture back = parse_capture(text, "mem");
  EXPECT_EQ(capture_to_json(back), text);  // a second trip is byte-identical
  EXPECT_EQ(back.device.name, c.device.name);
  EXPECT_EQ(back.device.cc_major, 9);
  EXPECT_EQ(back.device.l2_bytes, 52428800);
  ASSERT_EQ(back.runs.size(), 1u);
  EXPECT_EQ(back.runs[0].kernel, "sgemm/01_naive");
  EXPECT_EQ(back.runs[0].n, 2048);
  EXPECT_DOUBLE_EQ(back.runs[0].rel_err, 3.2e-7);
  EXPECT_EQ(back.runs[0].samples_ms, c.runs[0].samples_ms);
  ASSERT_EQ(back.layouts.size(), 1u);
  EXPECT_EQ(back.layouts[0].cells, c.layouts[0].cells);
  ASSERT_EQ(back.smem.size(), 1u);
  EXPECT_FALSE(back.smem[0].addr[0].has_value());  // inactive lane stays inactive
  EXPECT_EQ(*back.smem[0].addr[31], 31u * 144u);
  ASSERT_EQ(back.blocks.size(), 6u);
  EXPECT_EQ(back.blocks[0].end_ns, 1000000050000ull);
  EXPECT_EQ(back.blocks[0].tile_n, 1);
  ASSERT_EQ(back.stages.size(), 1u);
  EXPECT_EQ(back.stages[0].stage, "k-loop");
}

// A run whose cuBLAS was timed beside it says so and keeps saying so; a run without the field (every capture
// recorded before it existed) reads as timed once per shape; anything but true or false is rejected.
TEST(Capture, PairedCublasTimingSurvivesTheRoundTrip) {
  Capture c = sample_capture();
  c.runs.push_back(c.runs[0]);
  c.runs[1].cublas_paired = true;
  const std::string text = capture_to_json(c);
  const Capture back = parse_capture(text, "mem");
  ASSERT_EQ(back.runs.size(), 2u);
  EXPECT_FALSE(back.runs[0].cublas_paired);
  EXPECT_TRUE(back.runs[1].cublas_paired);
  EXPECT_EQ(capture_to_json(back), text);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_FALSE(j["runs"][0].contains("cublas_paired"));  // older readers see the file they know
  nlohmann::json bad = j;
  bad["runs"][1]["cublas_paired"] = "yes";
  EXPECT_NE(rejection(bad.dump()).find("runs[1].cublas_paired"), std::string::npos) << rejection(bad.dump());
}

// Nsight Compute's L2 numbers and the shared-memory price table, measured by other tools and kept by `record`,
// come back unchanged; a capture without them reads with none.
TEST(Capture, MeasuredTablesSurviveTheRoundTrip) {
  Capture c = sample_capture();
  EXPECT_EQ(capture_to_json(c).find("\"l2\""), std::string::npos);  // absent when there is none
  c.l2 = parse_l2_csv("kernel,size,order,l2_hit_pct,dram_read_bytes,duration_ns,tflops\n"
                      "mma_f16/07_swizzle[order=none],4096x16384x4096,none,79.4,2170000000,1873000,293.4\n"
                      "mma_f16/07_swizzle,4096x16384x4096,cutlass:4,92.4,670000000,1954000,281.3\n",
                      "l2.csv");
  c.smem_price = parse_smem_price("# comment\nwidth\tstride_bytes\twarps\tcycles_per_instruction\n4\t4\t1\t8.39\n"
                                  "4\t4\t16\t1.02\n4\t128\t16\t31.99\n",
                                  "price.tsv");
  ASSERT_EQ(c.l2.size(), 2u);
  EXPECT_EQ(c.l2[1].kernel, "mma_f16/07_swizzle");
  EXPECT_EQ(c.l2[1].n, 16384);
  EXPECT_DOUBLE_EQ(c.l2[1].hit_pct, 92.4);
  const Capture back = parse_capture(capture_to_json(c), "mem");
  ASSERT_EQ(back.l2.size(), 2u);
  EXPECT_EQ(back.l2[0].kernel, "mma_f16/07_swizzle[order=none]");
  EXPECT_DOUBLE_EQ(back.l2[0].dram_read_bytes, 2.17e9);
  EXPECT_DOUBLE_EQ(back.l2[0].duration_ns, 1873000);
  ASSERT_EQ(back.smem_price.size(), 3u);
  const SmemPrice* p = find_price(back, 4, 4);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->warps, 16);  // the most warps measured: the SM-wide price
  EXPECT_DOUBLE_EQ(p->cycles, 1.02);
  EXPECT_EQ(find_price(back, 8, 4), nullptr);
  EXPECT_TRUE(parse_capture(capture_to_json(sample_capture()), "mem").l2.empty());
}

std::string table_rejection(bool l2, const std::string& text) {
  try {
    if (l2)
      parse_l2_csv(text, "t.csv");
    else
      parse_smem_price(text, "t.tsv");
  } catch (const CaptureError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Capture, BadMeasuredTablesAreOneLineNamingFileAndLine) {
  EXPECT_EQ(table_rejection(true, "kernel,size\n"), "t.csv: no measurements (expected the CSV tools/l2_ncu.sh writes)");
  EXPECT_EQ(table_rejection(true, "k,4096x4096,none,50,1,1,1\n"), "t.csv:1: expected a size MxNxK, got \"4096x4096\"");
  EXPECT_EQ(table_rejection(true, "kernel,size,order\nk,1x1x1,none,150,1,1,1\n").rfind("t.csv:2: a hit rate outside", 0), 0u);
  EXPECT_EQ(table_rejection(true, "k,1x1x1,none,nan,1,1,1\n"), "t.csv:1 (l2_hit_pct): expected a number, got \"nan\"");
  EXPECT_EQ(table_rejection(false, "4\t4\t16\n").rfind("t.tsv:1: expected 4 tab-separated fields", 0), 0u);
  EXPECT_EQ(table_rejection(false, "3\t4\t16\t1.0\n").rfind("t.tsv:1: width must be 2, 4, 8 or 16", 0), 0u);
  EXPECT_EQ(rejection(capture_to_json(sample_capture()).replace(capture_to_json(sample_capture()).rfind("}"), 1,
                                                                 ", \"l2\": [{\"kernel\": \"x\"}]}")),
            "bad.json: l2[0]: missing field \"m\"");
}

// A live session's series (--series-log), kept in a capture for replay, comes back point for point; a series
// that goes back in time or lacks its kernel is refused with the line.
TEST(Capture, LiveSeriesSurvivesTheRoundTrip) {
  Capture c = sample_capture();
  c.series = parse_series_csv("t_s,tflops,cublas_tflops,sm_mhz,kernel\n"
                              "59.9,407.5,557.5,1965,\"mma_f16/10_multistage f16.f32 2048^3\"\n"
                              "60.1,307.3,557.5,1980,\"mma_f16/10_multistage[stages=2] f16.f32 2048^3\"\n",
                              "s.csv");
  const Capture back = parse_capture(capture_to_json(c), "mem");
  ASSERT_EQ(back.series.size(), 2u);
  EXPECT_DOUBLE_EQ(back.series[1].t, 60.1);
  EXPECT_DOUBLE_EQ(back.series[1].tflops, 307.3);
  EXPECT_EQ(back.series[1].sm_mhz, 1980);
  EXPECT_EQ(back.series[1].kernel, "mma_f16/10_multistage[stages=2] f16.f32 2048^3");
  auto refused = [](const std::string& text) {
    try {
      parse_series_csv(text, "s.csv");
    } catch (const CaptureError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused("2,1,1,1,\"k\"\n1,1,1,1,\"k\"\n"), "s.csv:2: the series goes back in time");
  EXPECT_EQ(refused("1,1,1,1\n"), "s.csv:1: expected t_s,tflops,cublas_tflops,sm_mhz,\"kernel\"");
  EXPECT_EQ(refused("t_s,tflops\n"), "s.csv: no points (expected gemmscope --series-log's CSV)");
}

// A capture put together from several recordings dates each kernel's list by the recording it came from.
TEST(Capture, MergedListsDateWhatTheyBrought) {
  Capture c = sample_capture();
  EXPECT_EQ(recorded_days(c), "2026-11-21");
  EXPECT_EQ(recorded_day(c, "mma_f16/09_ldmatrix", "smem"), "2026-11-21");
  c.merged.push_back({"mma_f16/09_ldmatrix", "smem", "2026-11-28"});
  c.merged.push_back({"sgemm/01_naive", "runs", "2026-11-23T10:00:00Z"});
  const Capture back = parse_capture(capture_to_json(c), "mem");
  ASSERT_EQ(back.merged.size(), 2u);
  EXPECT_EQ(back.merged[1].recorded_at, "2026-11-23T10:00:00Z");
  EXPECT_EQ(recorded_day(back, "mma_f16/09_ldmatrix", "smem"), "2026-11-28");
  EXPECT_EQ(recorded_day(back, "mma_f16/09_ldmatrix", "stages"), "2026-11-21");  // only the list it names
  EXPECT_EQ(recorded_day(back, "sgemm/01_naive", "runs"), "2026-11-23");
  EXPECT_EQ(recorded_days(back), "2026-11-21 to 2026-11-28");
  const std::string text = capture_to_json(c);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto pos = t.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    return t.replace(pos, from.size(), to);
  };
  EXPECT_EQ(rejection(replaced("\"list\":\"smem\"", "\"list\":\"layouts\"")),
            "bad.json: merged[0].list: expected runs, smem, gmem, blocks, stages or l2");
  EXPECT_EQ(rejection(replaced("\"recorded_at\":\"2026-11-28\"", "\"recorded_at\":\"yesterday\"")),
            "bad.json: merged[0].recorded_at: expected an ISO 8601 date, YYYY-MM-DD...");
}

// Captures recorded before the order variants were named [order=S] called the row-major one [order=row].
TEST(Capture, OldRowOrderVariantsReadAsOrderNone) {
  Capture c = sample_capture();
  c.runs[0].kernel = "mma_f16/07_swizzle[order=row]";
  for (BlockRecord& b : c.blocks) b.kernel = "mma_f16/07_swizzle[order=row]";
  const Capture back = parse_capture(capture_to_json(c), "mem");
  EXPECT_EQ(back.runs[0].kernel, "mma_f16/07_swizzle[order=none]");
  EXPECT_EQ(back.blocks[0].kernel, "mma_f16/07_swizzle[order=none]");
}

TEST(Capture, WriteIsAtomicAndReadable) {
  const auto dir = std::filesystem::temp_directory_path() / ("gs_capture_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "c.json").string();
  write_capture(sample_capture(), path);
  EXPECT_EQ(read_capture(path).runs.size(), 1u);
  // Only the target is left: the temporary was renamed, not copied.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}), 1);
  std::filesystem::remove_all(dir);
}

TEST(Capture, WriteToMissingFolderSaysWhich) {
  try {
    write_capture(sample_capture(), "/nonexistent-folder/c.json");
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/c.json"), std::string::npos) << e.what();
  }
}

TEST(Capture, RejectsMalformedFilesWithOneClearLine) {
  EXPECT_EQ(rejection("{"), rejection("{"));  // deterministic
  EXPECT_NE(rejection("{").find("bad.json: not valid JSON"), std::string::npos) << rejection("{");
  EXPECT_EQ(rejection("[1,2]"), "bad.json: expected a JSON object at the top level");
  EXPECT_EQ(rejection("{}"), "bad.json: missing field \"schema\"");

  std::string text = capture_to_json(sample_capture());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto pos = t.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    return t.replace(pos, from.size(), to);
  };
  EXPECT_EQ(rejection(replaced("gemmscope-capture/1", "gemmscope-capture/9")),
            "bad.json: schema: unknown schema \"gemmscope-capture/9\" (this gemmscope reads \"gemmscope-capture/1\")");
  EXPECT_EQ(rejection(replaced("\"m\":4096", "\"m\": \"big\"")), "bad.json: runs[0].m: expected an integer");
  EXPECT_EQ(rejection(replaced("\"m\":4096", "\"m\": -4")), "bad.json: runs[0].m: -4 is out of range [1, 1048576]");
  EXPECT_EQ(rejection(replaced("\"sm_count\":132,", "")), "bad.json: device: missing field \"sm_count\"");
  EXPECT_EQ(rejection(replaced("\"operand\":\"C\"", "\"operand\":\"Q\"")),
            "bad.json: layouts[0].operand: expected \"A\", \"B\" or \"C\", got \"Q\"");
}

// A capture is checked where a view could not draw it: a shared-memory access of 3 bytes a lane (the bank table drew a
// row of 0 wavefronts, "conflict-free"), a stage that ends before it starts (a warp drawn empty), a tile far outside
// the grid its launch's blocks can make (the launch-order view stretched its grid until it drew no tile).
TEST(Capture, RejectsWhatNoViewCanDraw) {
  Capture c = sample_capture();
  c.smem[0].width = 3;
  EXPECT_EQ(rejection(capture_to_json(c)), "bad.json: smem[0].width: expected 2, 4, 8 or 16 (bytes per lane), got 3");
  c = sample_capture();
  std::swap(c.stages[0].start, c.stages[0].end);
  EXPECT_EQ(rejection(capture_to_json(c)), "bad.json: stages[0].records[0]: end is before start");
  c = sample_capture();
  c.blocks[0].tile_m = 100000;
  EXPECT_EQ(rejection(capture_to_json(c)),
            "bad.json: blocks (sgemm/01_naive, launch 5): tile (100000, 1) lies outside any grid of its 6 block records");
  // A shared-memory offset past shared memory or not aligned to its width (the bank view drew a lane at 999999999
  // as "conflict-free"; `banks` refuses the same offset).
  c = sample_capture();
  const int w = c.smem[0].width;
  c.smem[0].addr[0] = 999999999;
  EXPECT_EQ(rejection(capture_to_json(c)),
            "bad.json: smem[0].addr[0]: 999999999 is out of range [0, " + std::to_string(233472 - w) + "]");
  c = sample_capture();
  c.smem[0].addr[3] = uint32_t(2 * w + 1);
  EXPECT_EQ(rejection(capture_to_json(c)), "bad.json: smem[0].addr[3]: " + std::to_string(2 * w + 1) +
                                               " is not a multiple of the record's width (" + std::to_string(w) + " bytes)");
}

TEST(Capture, RejectsABlockRecordThatEndsBeforeItStarts) {
  Capture c = sample_capture();
  std::swap(c.blocks[0].start_ns, c.blocks[0].end_ns);
  EXPECT_EQ(rejection(capture_to_json(c)), "bad.json: blocks[0].records[0]: end_ns is before start_ns");
}

// A block on no tile, or on one past any C, would leave the launch-order view a grid of no tiles or of 2^31 (it
// divided by zero and drew NaN rectangles, and the window crashed on them).
TEST(Capture, RejectsABlockOnATileNoCHas) {
  for (int bad : {-1, 1 << 20, INT32_MAX}) {
    Capture c = sample_capture();
    c.blocks[0].tile_m = bad;
    EXPECT_EQ(rejection(capture_to_json(c)),
              "bad.json: blocks[0].records[0][3] (tile_m): " + std::to_string(bad) + " is out of range [0, 1048575]");
  }
  Capture c = sample_capture();
  c.blocks[0].tile_n = -1;
  EXPECT_EQ(rejection(capture_to_json(c)), "bad.json: blocks[0].records[0][4] (tile_n): -1 is out of range [0, 1048575]");
}

TEST(Capture, RejectsCellsOutsideTheOperand) {
  Capture c = sample_capture();
  c.layouts[0].cells[7].col = 16;
  const std::string msg = rejection(capture_to_json(c));
  EXPECT_EQ(msg, "bad.json: layouts[0].cells[7][3] (col): 16 is out of range [-1, 15]");
}

// A message quotes the token the JSON parser stopped at: bytes that are not ASCII are written as \xNN, so that a
// file of junk does not print junk to the terminal.
TEST(Capture, AMessageQuotesNoRawBytes) {
  const std::string msg = rejection("{\"schema\": \xff\xfe}");
  EXPECT_NE(msg.find("\\xFF"), std::string::npos) << msg;
  EXPECT_TRUE(std::all_of(msg.begin(), msg.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) << msg;
}

// -1 marks a traced slot that decoded to no element: both coordinates or neither (layout's CSV printed 0,0,-1,0).
TEST(Capture, RejectsACellNowhereInOneCoordinateOnly) {
  Capture c = sample_capture();
  c.layouts[0].cells[7].row = -1;
  EXPECT_EQ(rejection(capture_to_json(c)),
            "bad.json: layouts[0].cells[7]: row -1 and col " + std::to_string(sample_capture().layouts[0].cells[7].col) +
                ": an element decoded to nowhere has both -1, any other neither");
  c.layouts[0].cells[7].col = -1;  // nowhere: kept, for the view to mark
  EXPECT_EQ(rejection(capture_to_json(c)), "(accepted)");
}

TEST(Capture, RejectsALayoutWhoseSlotsAreNotTheOpsOwn) {
  // wmma C: 32 lanes x 8 elements. A trace may put a slot anywhere (that is what it shows), but every lane's
  // elements 0-7 are there, once each; and the operand is the op's 16x16.
  Capture empty = sample_capture();
  empty.layouts[0].cells.clear();
  EXPECT_EQ(rejection(capture_to_json(empty)), "bad.json: layouts[0].cells: expected 256 cells (32 lanes x 8 elements), got 0");
  Capture twice = sample_capture();
  twice.layouts[0].cells[1] = twice.layouts[0].cells[0];
  EXPECT_EQ(rejection(capture_to_json(twice)), "bad.json: layouts[0].cells[1]: lane 0 element 0 appears twice");
  Capture beyond = sample_capture();
  beyond.layouts[0].cells[3].elem = 99;
  EXPECT_EQ(rejection(capture_to_json(beyond)), "bad.json: layouts[0].cells[3][1] (elem): expected 0-7, got 99");
  Capture shape = sample_capture();
  shape.layouts[0].rows = 8;
  for (LayoutCell& c : shape.layouts[0].cells) c.row %= 8;
  EXPECT_EQ(rejection(capture_to_json(shape)), "bad.json: layouts[0]: wmma.m16n16k16.f16 C is 16x16, not 8x16");
  // An element decoded to no place (-1) stays allowed: the view marks it.
  Capture lost = sample_capture();
  lost.layouts[0].cells[5].row = lost.layouts[0].cells[5].col = -1;
  EXPECT_EQ(rejection(capture_to_json(lost)), "(accepted)");
}

TEST(Capture, ReadingAMissingFileNamesIt) {
  try {
    read_capture("no/such/capture.json");
    FAIL() << "expected an error";
  } catch (const CaptureError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("no/such/capture.json: cannot open", 0), 0u) << e.what();
  }
}

TEST(Capture, AGzippedCaptureReadsAsItsJson) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  const std::string plain = dir + "/gs_gz_" + std::to_string(::getpid()) + ".json", gz = plain + ".gz";
  Capture c;
  c.device.name = "NVIDIA H100 80GB HBM3";
  c.device.sm_count = 132;
  write_capture(c, plain);
  write_capture(c, gz);  // FILE.gz is written gzipped
  EXPECT_TRUE(is_gzip(read_file(gz)));
  EXPECT_FALSE(is_gzip(read_file(plain)));
  EXPECT_EQ(capture_to_json(read_capture(gz)), capture_to_json(read_capture(plain)));
  // Damage inside the gzip layer is reported as the reader reports any: the file, then one line.
  const std::string cut = read_file(gz).substr(0, 30);
  std::ofstream(plain, std::ios::binary) << cut;
  try {
    read_capture(plain);
    ADD_FAILURE() << "a cut gzip file was read";
  } catch (const CaptureError& e) {
    EXPECT_EQ(std::string(e.what()), plain + ": gzip data cut short (the file ends inside the stream)");
  }
  std::remove(plain.c_str());
  std::remove(gz.c_str());
  EXPECT_TRUE(is_capture_file_name("h200.json.gz"));
  EXPECT_TRUE(is_capture_file_name("h200.json"));
  EXPECT_FALSE(is_capture_file_name("h200.gz"));
  EXPECT_FALSE(is_capture_file_name(".json"));
}

TEST(Capture, BundledCapturesLoad) {
  // Every capture shipped in assets/ must load: the window opens one when there is no GPU.
  int found = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GEMMSCOPE_ASSETS "/captures")) {
    if (!is_capture_file_name(entry.path().filename().string())) continue;
    ++found;
    const Capture c = read_capture(entry.path().string());
    EXPECT_FALSE(c.device.name.empty()) << entry.path();
    EXPECT_FALSE(c.runs.empty()) << entry.path();
    EXPECT_FALSE(c.layouts.empty()) << entry.path();
  }
  EXPECT_GE(found, 1) << "no capture bundled under assets/captures";
}

TEST(Capture, FailedRunWithNaNErrorSurvivesTheRoundTrip) {
  Capture c = sample_capture();
  c.runs[0].rel_err = std::nan("");
  const Capture back = parse_capture(capture_to_json(c), "mem");
  EXPECT_TRUE(std::isnan(back.runs[0].rel_err));
}

TEST(Capture, RunsOfOrdersBySize) {
  Capture c = sample_capture();
  RunRecord small = c.runs[0];
  small.m = small.n = small.k = 256;
  c.runs.push_back(small);
  const auto runs = runs_of(c, "sgemm/01_naive");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]->m, 256);
  EXPECT_TRUE(runs_of(c, "nope").empty());
}

TEST(Capture, ANumberTooLargeForADoubleIsOneLineNamingTheFile) {
  std::string text = capture_to_json(sample_capture());
  const size_t at = text.find("\"median_ms\":");
  ASSERT_NE(at, std::string::npos);
  text.insert(text.find(':', at) + 1, "1e400, \"was\":");
  try {
    parse_capture(text, "big.json");
    FAIL() << "1e400 was accepted";
  } catch (const CaptureError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("big.json: not valid JSON: ", 0), 0u) << what;
    EXPECT_NE(what.find("1e400"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  // A token of a million digits is quoted, but the message stays one short line.
  std::string huge = capture_to_json(sample_capture());
  huge.insert(huge.find(':', huge.find("\"median_ms\":")) + 1, "1" + std::string(1000000, '0') + "e400, \"was\":");
  try {
    parse_capture(huge, "huge.json");
    FAIL() << "a million-digit number was accepted";
  } catch (const CaptureError& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u);
  }
}

TEST(Capture, OverlongTextIsRefusedAndQuotedShort) {
  Capture c = sample_capture();
  c.device.name = std::string(5000, 'N');
  try {
    parse_capture(capture_to_json(c), "long.json");
    FAIL() << "a 5000-character device name was accepted";
  } catch (const CaptureError& e) {
    EXPECT_EQ(std::string(e.what()), "long.json: device.name: 5000 characters, more than the 4096 a capture's text may have");
  }
  c = sample_capture();
  c.schema = std::string(5000, 's');
  try {
    parse_capture(capture_to_json(c), "schema.json");
    FAIL() << "a 5000-character schema was accepted";
  } catch (const CaptureError& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
  }
}

}  // namespace
}  // namespace gs
