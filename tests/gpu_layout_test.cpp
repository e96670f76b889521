// Fragment layouts traced on this GPU by kernels/layout_probe.cu.
// mma.sync: each operand is traced through the product against the documented layouts of the
// other two, so agreement cell by cell means the hardware confirms every PTX formula in core.
// ldmatrix: its one operand (the tile) is traced from shared memory through the documented row
// addresses, so agreement confirms the element rule, the supplier rule and the tiling together.
// wmma: PTX documents no layout, so the trace is checked for sense (every element held, equally
// often, nothing outside the operand) and against the capture bundled for this GPU model.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/capture.h"
#include "core/layout.h"
#include "core/layout_trace.h"
#include "kernels/gemm.h"
#include "kernels/hopper/wgmma_probe.h"
#include "kernels/layout_probe.h"

namespace gs {
namespace {

constexpr Operand kOperands[] = {Operand::A, Operand::B, Operand::C};

struct Traced {
  std::vector<FragmentLayout> layouts;
  std::string error;
};

// One trace per process: every test reads the same run, as a capture would have stored it.
const Traced& traced() {
  static const Traced t = [] {
    Traced r;
    r.layouts = trace_fragment_layouts(&r.error);
    return r;
  }();
  return t;
}

const FragmentLayout* find_traced(const std::vector<FragmentLayout>& ls, const std::string& op, Operand o) {
  for (const FragmentLayout& l : ls)
    if (l.op == op && l.operand == operand_name(o)) return &l;
  return nullptr;
}

int differing_cells(const FragmentLayout& x, const FragmentLayout& y) {
  int n = static_cast<int>(std::max(x.cells.size(), y.cells.size()) - std::min(x.cells.size(), y.cells.size()));
  for (size_t i = 0; i < std::min(x.cells.size(), y.cells.size()); ++i) n += !(x.cells[i] == y.cells[i]);
  return n;
}

// A copy in lane-then-elem order under a label that says where it came from in failure messages.
FragmentLayout labelled(const FragmentLayout& l, const std::string& label) {
  FragmentLayout c = l;
  c.source = label;
  std::stable_sort(c.cells.begin(), c.cells.end(), [](const LayoutCell& x, const LayoutCell& y) {
    return x.lane != y.lane ? x.lane < y.lane : x.elem < y.elem;
  });
  return c;
}

std::vector<std::string> op_names(bool documented) {
  std::vector<std::string> names;
  for (const MmaOp& op : mma_ops())
    if (op.documented == documented) names.push_back(op.name);
  return names;
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '.', '_');
  return s;
}

#define REQUIRE_TRACE() ASSERT_TRUE(traced().error.empty()) << traced().error

class LayoutProbeMma : public testing::TestWithParam<std::string> {};

TEST_P(LayoutProbeMma, TracedEqualsDocumented) {
  REQUIRE_TRACE();
  const MmaOp* op = find_mma_op(GetParam());
  ASSERT_NE(op, nullptr);
  if (op->kind == OpKind::Wgmma && !hopper::wgmma_probe_runs_here())
    GTEST_SKIP() << op->name << " exists on sm_90 (H100, H200) only";
  for (Operand o : op_operands(*op)) {  // A, B, C; ldmatrix: A alone; wgmma: C alone
    SCOPED_TRACE(op->name + " " + operand_name(o));
    const FragmentLayout* t = find_traced(traced().layouts, op->name, o);
    ASSERT_NE(t, nullptr) << "the probe traced no layout for it";
    EXPECT_EQ(t->source, "traced");
    const FragmentLayout doc = documented_layout(*op, o);
    const std::string diff = layout_difference(*t, doc);
    EXPECT_EQ(diff, "") << differing_cells(*t, doc) << " of " << doc.cells.size()
                        << " cells differ; (-1,-1) means the experiment's D was incoherent";
  }
}

// Every documented op: the five mma.sync shapes, the six ldmatrix variants and wgmma's accumulator.
INSTANTIATE_TEST_SUITE_P(Documented, LayoutProbeMma, testing::ValuesIn(op_names(true)), test_name);

// ldmatrix has no B or C: a probe that returned them would be inventing layouts.
TEST(LayoutProbe, LdmatrixTracesOnlyItsTile) {
  REQUIRE_TRACE();
  int ldmatrix = 0;
  for (const FragmentLayout& l : traced().layouts) {
    const MmaOp* op = find_mma_op(l.op);
    ASSERT_NE(op, nullptr) << l.op;
    if (op->kind != OpKind::Ldmatrix) continue;
    ++ldmatrix;
    EXPECT_EQ(l.operand, "A") << l.op;
    const Coverage cov = check_coverage(l);
    EXPECT_TRUE(cov.ok) << l.op << ": " << cov.problem;
    EXPECT_EQ(cov.multiplicity, 1) << l.op;
  }
  EXPECT_EQ(ldmatrix, 6);
}

// The bank view draws a staged wmma accumulator (wmma/06-08's epilogues) from addresses the probe computes
// with wmma_common::acc_pair; those must be where store_matrix_sync and load_matrix_sync put the elements.
TEST(LayoutProbe, WmmaAccumulatorPairsAreWhereTheBankProbeSays) {
  REQUIRE_TRACE();  // the same device as the traces above
  EXPECT_EQ(check_wmma_acc_pairs(), "");
}

class LayoutProbeWmma : public testing::TestWithParam<std::string> {};

TEST_P(LayoutProbeWmma, TracedCoversOperand) {
  REQUIRE_TRACE();
  const MmaOp* op = find_mma_op(GetParam());
  ASSERT_NE(op, nullptr);
  for (Operand o : kOperands) {
    SCOPED_TRACE(op->name + " " + operand_name(o));
    const FragmentLayout* t = find_traced(traced().layouts, op->name, o);
    ASSERT_NE(t, nullptr) << "the probe traced no layout for it";
    EXPECT_EQ(t->source, "traced");
    const Extent e = operand_extent(*op, o);
    EXPECT_EQ(t->rows, e.rows);
    EXPECT_EQ(t->cols, e.cols);
    EXPECT_EQ(t->cells.size(), 32u * fragment_elems(*op, o));
    for (int lane = 0; lane < 32; ++lane)
      for (const LayoutCell& c : t->cells)
        if (c.lane == lane && (c.row < 0 || c.row >= e.rows || c.col < 0 || c.col >= e.cols)) {
          ADD_FAILURE() << "lane " << lane << " elem " << c.elem << " holds (" << c.row << "," << c.col
                        << "), outside the " << e.rows << "x" << e.cols << " operand";
          break;  // one per lane is enough to see the pattern
        }
    const Coverage cov = check_coverage(*t);
    EXPECT_TRUE(cov.ok) << cov.problem;
    if (cov.ok)  // wmma f16 A and B fragments may hold each element twice: the hardware's choice, not a bug
      std::cout << "[ layout   ] " << op->name << " " << operand_name(o) << ": " << fragment_elems(*op, o)
                << " elements per lane, every element held by " << cov.multiplicity
                << (cov.multiplicity == 1 ? " slot\n" : " slots\n");
  }
}

INSTANTIATE_TEST_SUITE_P(Traced, LayoutProbeWmma, testing::ValuesIn(op_names(false)), test_name);

// The bundled capture is what `gemmscope` shows with no GPU; it must show what this GPU model does.
TEST(LayoutProbe, WmmaM16N16K16MatchesBundledCapture) {
  REQUIRE_TRACE();
  std::string error;
  const std::unique_ptr<GpuSession> gpu = GpuSession::open(0, &error);
  ASSERT_TRUE(gpu) << error;
  const std::string name = gpu->device().name;
  const std::string op = "wmma.m16n16k16.f16";
  const std::filesystem::path dir = std::filesystem::path(GEMMSCOPE_ASSETS) / "captures";

  int matched = 0;
  std::error_code ec;  // a missing folder simply has no capture for this GPU
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!is_capture_file_name(entry.path().filename().string())) continue;
    const std::string file = entry.path().filename().string();
    Capture cap;
    try {
      cap = read_capture(entry.path().string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "bundled capture does not load: " << e.what();
      continue;
    }
    if (cap.device.name != name) continue;
    ++matched;
    for (Operand o : kOperands) {
      SCOPED_TRACE(file + ": " + op + " " + operand_name(o));
      const FragmentLayout* stored = find_layout(cap, op, operand_name(o), "traced");
      const FragmentLayout* now = find_traced(traced().layouts, op, o);
      ASSERT_NE(now, nullptr) << "the probe traced no layout for it";
      if (!stored) {
        ADD_FAILURE() << "the capture has no traced layout for it";
        continue;
      }
      EXPECT_EQ(layout_difference(labelled(*now, "traced now"), labelled(*stored, "in the capture")), "");
    }
  }
  if (matched == 0)
    GTEST_SKIP() << "no capture in assets/captures was recorded on '" << name
                 << "'; record one with `gemmscope record -o FILE` to compare against";
  std::cout << "[ layout   ] compared with " << matched << " bundled capture(s) of " << name << "\n";
}

// GpuSession::trace_layouts (kernels/runner.cu) is how the window and `record` get layouts: it must
// hand on this probe's layouts, covering what gemm.h promises.
TEST(LayoutProbe, SessionTraceLayoutsAreTheProbes) {
  REQUIRE_TRACE();
  std::string error;
  const std::unique_ptr<GpuSession> gpu = GpuSession::open(0, &error);
  ASSERT_TRUE(gpu) << error;
  error = "unset";
  const std::vector<FragmentLayout> session = gpu->trace_layouts(&error);
  EXPECT_EQ(error, "");  // success clears it
  ASSERT_FALSE(session.empty()) << "GpuSession::trace_layouts returned nothing";
  std::vector<std::string> promised = op_names(true);  // mma.sync and ldmatrix
  promised.push_back("wmma.m16n16k16.f16");
  for (const std::string& op : promised)
    for (Operand o : op_operands(*find_mma_op(op))) {
      SCOPED_TRACE(op + " " + operand_name(o));
      const FragmentLayout* s = find_traced(session, op, o);
      const FragmentLayout* p = find_traced(traced().layouts, op, o);
      ASSERT_NE(p, nullptr) << "the probe traced no layout for it";
      ASSERT_NE(s, nullptr) << "GpuSession::trace_layouts has no layout for it";
      EXPECT_EQ(s->source, "traced");
      EXPECT_EQ(layout_difference(labelled(*s, "session"), labelled(*p, "probe")), "");
    }
}

}  // namespace
}  // namespace gs
