// The host half of the layout probes, with no GPU: a CPU model of mma.sync stands in for the
// tensor cores, so the decoder is checked both on a GPU that agrees with the PTX ISA and on one
// that deliberately does not.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/layout.h"
#include "core/layout_trace.h"

namespace gs {
namespace {

// The documented products (mma.sync): the ops traced through D = A * B.
std::vector<const MmaOp*> documented_ops() {
  std::vector<const MmaOp*> ops;
  for (const MmaOp& op : mma_ops())
    if (op.documented && op.kind == OpKind::Mma) ops.push_back(&op);
  return ops;
}

std::vector<const MmaOp*> ldmatrix_ops() {
  std::vector<const MmaOp*> ops;
  for (const MmaOp& op : mma_ops())
    if (op.kind == OpKind::Ldmatrix) ops.push_back(&op);
  return ops;
}

const MmaOp& op_named(const char* name) {
  const MmaOp* op = find_mma_op(name);
  if (!op) throw std::runtime_error(std::string("core has no op ") + name);
  return *op;
}

FragmentLayout& layout_of(MmaLayouts& l, Operand o) { return o == Operand::A ? l.a : o == Operand::B ? l.b : l.c; }
const FragmentLayout& layout_of(const MmaLayouts& l, Operand o) {
  return o == Operand::A ? l.a : o == Operand::B ? l.b : l.c;
}

// Word `reg` of `lane` in experiment `e` of a [experiment][lane][reg] array.
uint32_t word(const std::vector<uint32_t>& w, int regs, int e, int lane, int reg) {
  return w[(static_cast<size_t>(e) * 32 + lane) * regs + reg];
}

TEST(LayoutTrace, HalfBitsAreExactForSmallIntegers) {
  EXPECT_EQ(half_bits(0), 0x0000);
  EXPECT_EQ(half_bits(1), 0x3C00);
  EXPECT_EQ(half_bits(-2), 0xC000);
  EXPECT_EQ(half_bits(8), 0x4800);
  EXPECT_EQ(half_bits(511), 0x5FFC);
  EXPECT_EQ(half_bits(1024), 0x6400);
  EXPECT_EQ(half_bits(2048), 0x6800);
  for (int v = -2048; v <= 2048; ++v) ASSERT_EQ(half_value(half_bits(v)), static_cast<float>(v)) << v;
  EXPECT_THROW(half_bits(2049), std::invalid_argument);
  EXPECT_THROW(half_bits(-2049), std::invalid_argument);
}

TEST(LayoutTrace, HalfValueDecodesSpecialPatterns) {
  EXPECT_EQ(half_value(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(half_value(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(half_value(0x7C00)));
  EXPECT_TRUE(std::isnan(half_value(0x7E00)));
  EXPECT_TRUE(std::isnan(half_value(0xFFFF)));  // the probe's poison, read as two halves
}

TEST(LayoutTrace, DecodeCoordinateAcceptsOnlyIndicesInside) {
  int r = 0, c = 0;
  ASSERT_TRUE(decode_coordinate(13, 4, 8, &r, &c));
  EXPECT_EQ(r, 1);
  EXPECT_EQ(c, 5);
  EXPECT_FALSE(decode_coordinate(32, 4, 8, &r, &c));
  EXPECT_FALSE(decode_coordinate(-1, 4, 8, &r, &c));
  EXPECT_FALSE(decode_coordinate(2.5, 4, 8, &r, &c));
  EXPECT_FALSE(decode_coordinate(std::nan(""), 4, 8, &r, &c));
}

TEST(LayoutTrace, CoordinateMatricesHoldTheirOwnIndex) {
  const std::vector<uint16_t> h = coordinate_matrix_f16(16, 32);
  ASSERT_EQ(h.size(), 512u);
  EXPECT_EQ(h[3 * 32 + 5], half_bits(101));
  EXPECT_EQ(half_value(h.back()), 511.0f);
  const std::vector<float> f = coordinate_matrix_f32(32, 8);
  EXPECT_EQ(f[7 * 8 + 2], 58.0f);
  EXPECT_NO_THROW(coordinate_matrix_f16(32, 64));  // largest index 2047
  EXPECT_THROW(coordinate_matrix_f16(64, 64), std::invalid_argument);
}

TEST(LayoutTrace, WmmaDecodeNamesEachSlotsElement) {
  const MmaOp& op = op_named("wmma.m16n16k16.f16");
  // A made-up accumulator layout: lane L elem E holds row-major element 8L + E.
  std::vector<float> values(32 * 8);
  for (int i = 0; i < 256; ++i) values[i] = static_cast<float>(i);
  values[5 * 8 + 3] = std::nanf("");  // never written: the probe's NaN poison
  values[6 * 8 + 1] = 256;            // outside the 16x16 operand
  const FragmentLayout l = decode_wmma_trace(op, Operand::C, values);
  EXPECT_EQ(l.op, "wmma.m16n16k16.f16");
  EXPECT_EQ(l.operand, "C");
  EXPECT_EQ(l.source, "traced");
  EXPECT_EQ(l.rows, 16);
  EXPECT_EQ(l.cols, 16);
  ASSERT_EQ(l.cells.size(), 256u);
  EXPECT_EQ(l.cells[2 * 8 + 4], (LayoutCell{2, 4, 1, 4}));  // element 20
  EXPECT_EQ(l.cells[5 * 8 + 3], (LayoutCell{5, 3, -1, -1}));
  EXPECT_EQ(l.cells[6 * 8 + 1], (LayoutCell{6, 1, -1, -1}));
  EXPECT_FALSE(check_coverage(l).ok);
  values.pop_back();
  EXPECT_THROW(decode_wmma_trace(op, Operand::C, values), std::invalid_argument);
}

// The registers the batch feeds m16n8k16, checked against the PTX ISA's fragment pictures by hand.
TEST(LayoutTrace, PlanPacksRegistersAsPtxExpects) {
  const MmaOp& op = op_named("mma.m16n8k16.f16");
  const MmaTraceBatch bt = plan_mma_trace(op, documented_mma_layouts(op));
  EXPECT_EQ(bt.regs_a, 4);
  EXPECT_EQ(bt.regs_b, 2);
  EXPECT_EQ(bt.regs_c, 4);
  EXPECT_EQ(bt.experiments, 1 + 32 * 8 + 32 * 4);
  EXPECT_EQ(bt.a.size(), 385u * 32 * 4);
  EXPECT_EQ(bt.b.size(), 385u * 32 * 2);
  EXPECT_EQ(bt.c.size(), 385u * 32 * 4);
  for (uint32_t w : bt.c) ASSERT_EQ(w, 0u);
  // D trace, A[r][0] = 1, A[r][1] = r: a0 (low half) and a1 of lane 4 (group 1) are (1,0), (1,1).
  EXPECT_EQ(word(bt.a, 4, 0, 0, 0), 0x00003C00u);
  EXPECT_EQ(word(bt.a, 4, 0, 4, 0), 0x3C003C00u);
  EXPECT_EQ(word(bt.a, 4, 0, 4, 1), uint32_t{half_bits(9)} << 16 | half_bits(1));  // a2,a3: row g + 8 = 9
  // B[0][c] = c, B[1][c] = n = 8: b0,b1 of lane 4 (column 1) are 1 and 8.
  EXPECT_EQ(word(bt.b, 2, 0, 0, 0), 0x48000000u);
  EXPECT_EQ(word(bt.b, 2, 0, 4, 0), 0x48003C00u);
  // A trace of lane 0 elem 1 (experiment 2): only the high half of lane 0's a0 register is 1.
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < 4; ++reg)
      ASSERT_EQ(word(bt.a, 4, 2, lane, reg), lane == 0 && reg == 0 ? 0x3C000000u : 0u) << lane << " " << reg;
  // ... with B[k][c] = k + 1: lane 1 (t = 1) holds k = 2, 3 in b0 and k = 10, 11 in b1.
  EXPECT_EQ(word(bt.b, 2, 2, 1, 0), uint32_t{half_bits(4)} << 16 | half_bits(3));
  EXPECT_EQ(word(bt.b, 2, 2, 1, 1), uint32_t{half_bits(12)} << 16 | half_bits(11));
}

TEST(LayoutTrace, PlanPacksS8BytesLowFirst) {
  const MmaOp& op = op_named("mma.m8n8k16.s8");
  const MmaTraceBatch bt = plan_mma_trace(op, documented_mma_layouts(op));
  ASSERT_EQ(bt.regs_a, 1);
  ASSERT_EQ(bt.regs_b, 1);
  ASSERT_EQ(bt.regs_c, 2);
  // A trace of lane 3 elem 2 (experiment 1 + 3 * 4 + 2): byte 2 of lane 3's only A register.
  EXPECT_EQ(word(bt.a, 1, 15, 3, 0), 0x00010000u);
  // ... with B[k][c] = k + 1: lane 1 (t = 1) holds k = 4..7, values 5..8.
  EXPECT_EQ(word(bt.b, 1, 15, 1, 0), 0x08070605u);
}

// A GPU that agrees with the PTX ISA: every operand decodes to its documented layout.
TEST(LayoutTrace, DocumentedHardwareDecodesToDocumentedLayouts) {
  for (const MmaOp* op : documented_ops()) {
    SCOPED_TRACE(op->name);
    const MmaLayouts doc = documented_mma_layouts(*op);
    const MmaTraceBatch bt = plan_mma_trace(*op, doc);
    const std::vector<FragmentLayout> traced = decode_mma_trace(*op, doc, simulate_mma_trace(*op, doc, bt));
    ASSERT_EQ(traced.size(), 3u);
    const FragmentLayout* want[3] = {&doc.a, &doc.b, &doc.c};
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(traced[i].source, "traced");
      EXPECT_EQ(layout_difference(traced[i], *want[i]), "");
      EXPECT_TRUE(check_coverage(traced[i]).ok) << check_coverage(traced[i]).problem;
    }
  }
}

// A GPU whose layout of one operand disagrees with the formula (two cells' elements exchanged):
// that operand's trace, made through the other two (still right), reports what the GPU does.
TEST(LayoutTrace, WrongFormulaShowsUpAsMismatch) {
  for (const MmaOp* op : documented_ops())
    for (Operand o : {Operand::A, Operand::B, Operand::C}) {
      SCOPED_TRACE(op->name + " " + operand_name(o));
      const MmaLayouts doc = documented_mma_layouts(*op);
      MmaLayouts hw = doc;
      std::vector<LayoutCell>& cells = layout_of(hw, o).cells;
      LayoutCell &x = cells.front(), &y = cells[cells.size() / 2 + 1];
      ASSERT_FALSE(x.row == y.row && x.col == y.col);
      std::swap(x.row, y.row);
      std::swap(x.col, y.col);

      const MmaTraceBatch bt = plan_mma_trace(*op, doc);
      const std::vector<FragmentLayout> traced = decode_mma_trace(*op, doc, simulate_mma_trace(*op, hw, bt));
      const FragmentLayout& t = traced[static_cast<int>(o)];
      FragmentLayout truth = layout_of(hw, o);
      truth.source = "traced";
      EXPECT_EQ(layout_difference(t, truth), "");
      const std::string diff = layout_difference(t, layout_of(doc, o));
      EXPECT_EQ(diff.rfind("lane 0 elem 0: traced ", 0), 0u) << diff;
    }
}

TEST(LayoutTrace, UnwrittenOutputDecodesToImpossibleCells) {
  for (const char* name : {"mma.m16n8k8.tf32", "mma.m16n8k32.s8"}) {
    const MmaOp& op = op_named(name);
    SCOPED_TRACE(op.name);
    const MmaLayouts doc = documented_mma_layouts(op);
    const MmaTraceBatch bt = plan_mma_trace(op, doc);
    const std::vector<uint32_t> poison(static_cast<size_t>(bt.experiments) * 32 * bt.regs_c, 0xFFFFFFFFu);
    for (const FragmentLayout& l : decode_mma_trace(op, doc, poison)) {
      for (const LayoutCell& c : l.cells) ASSERT_TRUE(c.row == -1 && c.col == -1) << c.lane << " " << c.elem;
      EXPECT_FALSE(check_coverage(l).ok);
    }
  }
}

// An A experiment whose lit row has one element moved to another row (the count of lit elements
// and their columns still look right) and a B experiment whose column has a hole: only those two
// slots become impossible.
TEST(LayoutTrace, IncoherentExperimentMarksOnlyItsSlot) {
  const MmaOp& op = op_named("mma.m16n8k16.f16");
  const MmaLayouts doc = documented_mma_layouts(op);
  const MmaTraceBatch bt = plan_mma_trace(op, doc);
  std::vector<uint32_t> d = simulate_mma_trace(op, doc, bt);
  const auto c = [&](int e, int lane, int elem) -> uint32_t& {
    return d[(static_cast<size_t>(e) * 32 + lane) * bt.regs_c + elem];
  };
  // A trace of lane 5 elem 3 ((g 1, t 1) -> row 9, k 3) lights row 9 with 4.0. D's (9,3) is lane 5's
  // c3; (0,3) is lane 1's c1.
  const int ea = 1 + 5 * op.elems_a + 3;
  ASSERT_EQ(c(ea, 5, 3), 0x40800000u);
  ASSERT_EQ(c(ea, 1, 1), 0u);
  std::swap(c(ea, 5, 3), c(ea, 1, 1));
  // B trace of lane 2 elem 1 ((g 0, t 2) -> k 5, column 0) lights column 0 with 6.0; (0,0) is lane 0's c0.
  const int eb = 1 + 32 * op.elems_a + 2 * op.elems_b + 1;
  ASSERT_EQ(c(eb, 0, 0), 0x40C00000u);
  c(eb, 0, 0) = 0;
  const std::vector<FragmentLayout> traced = decode_mma_trace(op, doc, d);
  for (const LayoutCell& x : traced[0].cells) {
    if (x.lane == 5 && x.elem == 3) EXPECT_EQ(x, (LayoutCell{5, 3, -1, -1}));
    else ASSERT_EQ(x, doc.a.cells[x.lane * op.elems_a + x.elem]);
  }
  for (const LayoutCell& x : traced[1].cells) {
    if (x.lane == 2 && x.elem == 1) EXPECT_EQ(x, (LayoutCell{2, 1, -1, -1}));
    else ASSERT_EQ(x, doc.b.cells[x.lane * op.elems_b + x.elem]);
  }
  EXPECT_EQ(layout_difference(traced[2], doc.c), "");
  d.pop_back();
  EXPECT_THROW(decode_mma_trace(op, doc, d), std::invalid_argument);
}

TEST(LayoutTrace, LayoutsNamingNoSlotAreRejected) {
  const MmaOp& op = op_named("mma.m16n8k8.f16");
  MmaLayouts bad = documented_mma_layouts(op);
  bad.b.cells[3].lane = 32;
  EXPECT_THROW(plan_mma_trace(op, bad), std::invalid_argument);
  bad = documented_mma_layouts(op);
  bad.c.cells[0].row = 16;
  EXPECT_THROW(plan_mma_trace(op, bad), std::invalid_argument);
}

TEST(LayoutTrace, LayoutDifferenceNamesTheFirstCell) {
  const MmaOp& op = op_named("mma.m16n8k8.tf32");
  const FragmentLayout doc = documented_layout(op, Operand::A);
  FragmentLayout t = doc;
  t.source = "traced";
  EXPECT_EQ(layout_difference(t, doc), "");
  t.cells[6].col = 7;  // lane 1 elem 2 is (0,5)
  EXPECT_EQ(layout_difference(t, doc), "lane 1 elem 2: traced (0,7), documented (0,5)");
  FragmentLayout u = doc;
  u.cells.pop_back();
  EXPECT_EQ(layout_difference(u, doc), "first documented has 127 cells, second documented 128");
  u.rows = 8;
  EXPECT_EQ(layout_difference(u, doc), "extent: first documented 8x8, second documented 16x8");
}

// ---- ldmatrix ----------------------------------------------------------------------------------

TEST(LayoutTraceLdmatrix, PlanPutsIndicesInTheTileAndSupplierRowsInTheLanes) {
  ASSERT_EQ(ldmatrix_ops().size(), 6u);
  const LdmatrixProbe p = plan_ldmatrix_trace(op_named("ldmatrix.x4"));
  EXPECT_EQ(p.op, "ldmatrix.x4");
  EXPECT_EQ(p.rows, 16);
  EXPECT_EQ(p.cols, 16);
  EXPECT_EQ(p.regs, 4);
  ASSERT_EQ(p.tile.size(), 256u);
  for (size_t i = 0; i < p.tile.size(); ++i) ASSERT_EQ(p.tile[i], i);
  ASSERT_EQ(p.offsets.size(), 32u);
  // Byte offsets of 16-column b16 rows (32 bytes each): matrix 0 top-left, 1 bottom-left, 2 top-right, 3 bottom-right.
  EXPECT_EQ(p.offsets[0], 0u);
  EXPECT_EQ(p.offsets[1], 32u);         // row 1
  EXPECT_EQ(p.offsets[8], 8u * 32);     // matrix 1 row 0 = tile row 8
  EXPECT_EQ(p.offsets[16], 16u);        // matrix 2 row 0 = tile row 0, column 8
  EXPECT_EQ(p.offsets[31], 15u * 32 + 16);
  for (uint32_t off : p.offsets) EXPECT_EQ(off % 16, 0u) << "ldmatrix rows are 16-byte aligned";

  // .x1 and .x2: the lanes past 8 x matrices repeat the lower lanes' addresses (valid on every target).
  const LdmatrixProbe x1 = plan_ldmatrix_trace(op_named("ldmatrix.x1.trans"));
  EXPECT_EQ(x1.rows * x1.cols, 64);
  EXPECT_EQ(x1.offsets[3], 3u * 16);
  EXPECT_EQ(x1.offsets[11], x1.offsets[3]);
  EXPECT_EQ(x1.offsets[31], x1.offsets[7]);
  const LdmatrixProbe x2 = plan_ldmatrix_trace(op_named("ldmatrix.x2"));
  EXPECT_EQ(x2.offsets[9], 9u * 16);    // matrix 1 row 1 = tile row 9 of a 16x8 tile
  EXPECT_EQ(x2.offsets[25], x2.offsets[9]);
  EXPECT_THROW(plan_ldmatrix_trace(op_named("mma.m16n8k16.f16")), std::invalid_argument);
}

// The CPU model is written from the ISA's words in memory terms, the documented layout in tile
// coordinates: a GPU that behaves as the ISA says decodes to the documented layout for all six.
TEST(LayoutTraceLdmatrix, DocumentedHardwareDecodesToDocumentedLayouts) {
  for (const MmaOp* op : ldmatrix_ops()) {
    SCOPED_TRACE(op->name);
    const LdmatrixProbe p = plan_ldmatrix_trace(*op);
    const std::vector<uint32_t> regs = simulate_ldmatrix(op->matrices, op->trans, p.tile, p.offsets);
    const FragmentLayout traced = decode_ldmatrix_trace(*op, regs);
    EXPECT_EQ(traced.source, "traced");
    EXPECT_EQ(traced.operand, "A");
    EXPECT_EQ(layout_difference(traced, documented_layout(*op, Operand::A)), "");
    const Coverage cov = check_coverage(traced);
    EXPECT_TRUE(cov.ok) << cov.problem;
    EXPECT_EQ(cov.multiplicity, 1);
  }
}

// Registers written by hand for two lanes of ldmatrix.x4, to pin the decoder's packing on its own:
// element 2j + h is half h of register j, low half first.
TEST(LayoutTraceLdmatrix, DecodesLowHalfFirst) {
  const MmaOp& op = op_named("ldmatrix.x4");
  std::vector<uint32_t> regs(32 * 4, 0xFFFFFFFFu);
  regs[5 * 4 + 2] = (37u << 16) | 36u;  // lane 5, register 2: tile indices 36 = (2,4) low, 37 = (2,5) high
  const FragmentLayout l = decode_ldmatrix_trace(op, regs);
  ASSERT_EQ(l.cells.size(), 32u * 8);
  EXPECT_EQ(l.cells[5 * 8 + 4], (LayoutCell{5, 4, 2, 4}));
  EXPECT_EQ(l.cells[5 * 8 + 5], (LayoutCell{5, 5, 2, 5}));
  for (const LayoutCell& c : l.cells) {  // everything else is poison: the impossible cell, not (0,0)
    if (!(c.lane == 5 && (c.elem == 4 || c.elem == 5))) {
      ASSERT_EQ(std::make_pair(c.row, c.col), std::make_pair(-1, -1));
    }
  }
  EXPECT_FALSE(check_coverage(l).ok);
  regs.pop_back();
  EXPECT_THROW(decode_ldmatrix_trace(op, regs), std::invalid_argument);
  EXPECT_THROW(decode_ldmatrix_trace(op_named("mma.m16n8k8.f16"), std::vector<uint32_t>(32)), std::invalid_argument);
}

// A GPU that does not do what core documents is caught, whichever rule it breaks.
TEST(LayoutTraceLdmatrix, WrongRuleShowsUpAsMismatch) {
  const MmaOp& x4 = op_named("ldmatrix.x4");
  const FragmentLayout doc = documented_layout(x4, Operand::A);
  const LdmatrixProbe p = plan_ldmatrix_trace(x4);

  // Transposes when it should not: lane 0's high half comes from row 1, column 0.
  FragmentLayout t = decode_ldmatrix_trace(x4, simulate_ldmatrix(4, true, p.tile, p.offsets));
  EXPECT_EQ(layout_difference(t, doc), "lane 0 elem 1: traced (1,0), documented (0,1)");
  EXPECT_TRUE(check_coverage(t).ok) << "a wrong rule can still be a bijection: only the comparison sees it";

  // Takes matrix 1's rows from lanes 16-23 and matrix 2's from lanes 8-15 (the supplier table read
  // wrongly, or the tiling swapped): register 1 then holds the top-right matrix.
  std::vector<uint32_t> swapped = p.offsets;
  for (int i = 0; i < 8; ++i) std::swap(swapped[8 + i], swapped[16 + i]);
  t = decode_ldmatrix_trace(x4, simulate_ldmatrix(4, false, p.tile, swapped));
  EXPECT_EQ(layout_difference(t, doc), "lane 0 elem 2: traced (0,8), documented (8,0)");

  // .x1 reading its rows in reverse order of the lanes.
  const MmaOp& x1 = op_named("ldmatrix.x1");
  const LdmatrixProbe q = plan_ldmatrix_trace(x1);
  std::vector<uint32_t> reversed = q.offsets;
  for (int i = 0; i < 8; ++i) reversed[i] = q.offsets[7 - i];
  t = decode_ldmatrix_trace(x1, simulate_ldmatrix(1, false, q.tile, reversed));
  EXPECT_EQ(layout_difference(t, documented_layout(x1, Operand::A)), "lane 0 elem 0: traced (7,0), documented (0,0)");

  // A GPU that leaves one register unwritten: those two slots become impossible, nothing else moves.
  std::vector<uint32_t> regs = simulate_ldmatrix(4, false, p.tile, p.offsets);
  regs[7 * 4 + 3] = 0xFFFFFFFFu;
  t = decode_ldmatrix_trace(x4, regs);
  for (const LayoutCell& c : t.cells) {
    if (c.lane == 7 && c.elem >= 6) EXPECT_EQ(c, (LayoutCell{c.lane, c.elem, -1, -1}));
    else ASSERT_EQ(c, doc.cells[c.lane * 8 + c.elem]);
  }
}

TEST(LayoutTraceLdmatrix, SimulationRejectsBadAddresses) {
  const LdmatrixProbe p = plan_ldmatrix_trace(op_named("ldmatrix.x2"));
  std::vector<uint32_t> off = p.offsets;
  off[3] += 2;  // not 16-byte aligned
  EXPECT_THROW(simulate_ldmatrix(2, false, p.tile, off), std::invalid_argument);
  off = p.offsets;
  off[15] = static_cast<uint32_t>(p.tile.size() * 2);  // one row past the tile
  EXPECT_THROW(simulate_ldmatrix(2, false, p.tile, off), std::invalid_argument);
  EXPECT_THROW(simulate_ldmatrix(3, false, p.tile, p.offsets), std::invalid_argument);
  off.resize(16);
  EXPECT_THROW(simulate_ldmatrix(2, false, p.tile, off), std::invalid_argument);
  // Lanes past 8 x matrices supply nothing: any address there is ignored.
  off = p.offsets;
  off[31] = 12345;
  EXPECT_EQ(simulate_ldmatrix(2, false, p.tile, off), simulate_ldmatrix(2, false, p.tile, p.offsets));
}


// The wgmma probe's D = A * B, computed here for a warpgroup whose accumulator has the layout `hw` (documented,
// or a wrong one): each thread's registers as the probe would write them.
std::vector<float> simulate_wgmma(const MmaOp& op, const FragmentLayout& hw, const WgmmaTraceInputs& in) {
  std::vector<float> d(size_t(op.threads) * op.elems_c, std::nanf(""));
  for (const LayoutCell& c : hw.cells) {
    float sum = 0;
    for (int k = 0; k < op.k; ++k)
      sum += half_value(in.a[size_t(c.row) * op.k + k]) * half_value(in.b[size_t(k) * op.n + c.col]);
    d[size_t(c.lane) * op.elems_c + c.elem] = sum;
  }
  return d;
}

TEST(LayoutTraceWgmma, ProductNamesEachAccumulatorSlot) {
  const MmaOp& op = *find_mma_op("wgmma.m64n16k16.f16");
  const WgmmaTraceInputs in = plan_wgmma_trace(op);
  ASSERT_EQ(in.a.size(), 64u * 16);
  ASSERT_EQ(in.b.size(), 16u * 16);
  const FragmentLayout doc = documented_layout(op, Operand::C);
  const FragmentLayout traced = decode_wmma_trace(op, Operand::C, simulate_wgmma(op, doc, in));
  EXPECT_EQ(traced.source, "traced");
  EXPECT_EQ(layout_difference(traced, doc), "");
  // A GPU whose warps took each other's rows shows up cell by cell.
  FragmentLayout swapped = doc;
  for (LayoutCell& c : swapped.cells) c.row = (c.row + 16) % 64;
  const FragmentLayout wrong = decode_wmma_trace(op, Operand::C, simulate_wgmma(op, swapped, in));
  EXPECT_NE(layout_difference(wrong, doc), "");
  // Registers the GPU never wrote (NaN poison) decode to no element.
  std::vector<float> d = simulate_wgmma(op, doc, in);
  d[37 * 8 + 5] = std::nanf("");
  const FragmentLayout holed = decode_wmma_trace(op, Operand::C, d);
  EXPECT_EQ(holed.cells[37 * 8 + 5].row, -1);
  EXPECT_THROW(plan_wgmma_trace(*find_mma_op("mma.m16n8k16.f16")), std::invalid_argument);
}

}  // namespace
}  // namespace gs
