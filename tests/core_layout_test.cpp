// Fragment layouts against the PTX ISA, written independently of core/layout.cpp: mma.m16n8k16's three
// operands are transcribed cell by cell from the ISA's figures, every other op is spot-checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/files.h"
#include "core/layout.h"

namespace gs {
namespace {

const MmaOp& op_named(const char* name) {
  const MmaOp* op = find_mma_op(name);
  if (!op) throw std::runtime_error(std::string("no op ") + name);
  return *op;
}

// A figure as the ISA draws it: one string per matrix row, one "lane:elem" per column
// ("T5: a3" in the figure is "5:3" here).
using Figure = std::vector<std::string>;

// PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type", Figure "MMA .m16n8k16 fragment
// layout for matrix A with .f16/.bf16 type" (16 x 16).
const Figure kFigureA = {
    "0:0 0:1 1:0 1:1 2:0 2:1 3:0 3:1 0:4 0:5 1:4 1:5 2:4 2:5 3:4 3:5",
    "4:0 4:1 5:0 5:1 6:0 6:1 7:0 7:1 4:4 4:5 5:4 5:5 6:4 6:5 7:4 7:5",
    "8:0 8:1 9:0 9:1 10:0 10:1 11:0 11:1 8:4 8:5 9:4 9:5 10:4 10:5 11:4 11:5",
    "12:0 12:1 13:0 13:1 14:0 14:1 15:0 15:1 12:4 12:5 13:4 13:5 14:4 14:5 15:4 15:5",
    "16:0 16:1 17:0 17:1 18:0 18:1 19:0 19:1 16:4 16:5 17:4 17:5 18:4 18:5 19:4 19:5",
    "20:0 20:1 21:0 21:1 22:0 22:1 23:0 23:1 20:4 20:5 21:4 21:5 22:4 22:5 23:4 23:5",
    "24:0 24:1 25:0 25:1 26:0 26:1 27:0 27:1 24:4 24:5 25:4 25:5 26:4 26:5 27:4 27:5",
    "28:0 28:1 29:0 29:1 30:0 30:1 31:0 31:1 28:4 28:5 29:4 29:5 30:4 30:5 31:4 31:5",
    "0:2 0:3 1:2 1:3 2:2 2:3 3:2 3:3 0:6 0:7 1:6 1:7 2:6 2:7 3:6 3:7",
    "4:2 4:3 5:2 5:3 6:2 6:3 7:2 7:3 4:6 4:7 5:6 5:7 6:6 6:7 7:6 7:7",
    "8:2 8:3 9:2 9:3 10:2 10:3 11:2 11:3 8:6 8:7 9:6 9:7 10:6 10:7 11:6 11:7",
    "12:2 12:3 13:2 13:3 14:2 14:3 15:2 15:3 12:6 12:7 13:6 13:7 14:6 14:7 15:6 15:7",
    "16:2 16:3 17:2 17:3 18:2 18:3 19:2 19:3 16:6 16:7 17:6 17:7 18:6 18:7 19:6 19:7",
    "20:2 20:3 21:2 21:3 22:2 22:3 23:2 23:3 20:6 20:7 21:6 21:7 22:6 22:7 23:6 23:7",
    "24:2 24:3 25:2 25:3 26:2 26:3 27:2 27:3 24:6 24:7 25:6 25:7 26:6 26:7 27:6 27:7",
    "28:2 28:3 29:2 29:3 30:2 30:3 31:2 31:3 28:6 28:7 29:6 29:7 30:6 30:7 31:6 31:7",
};

// Same section, Figure "MMA .m16n8k16 fragment layout for matrix B with .f16/.bf16 type" (16 x 8: k rows, n columns).
const Figure kFigureB = {
    "0:0 4:0 8:0 12:0 16:0 20:0 24:0 28:0", "0:1 4:1 8:1 12:1 16:1 20:1 24:1 28:1",
    "1:0 5:0 9:0 13:0 17:0 21:0 25:0 29:0", "1:1 5:1 9:1 13:1 17:1 21:1 25:1 29:1",
    "2:0 6:0 10:0 14:0 18:0 22:0 26:0 30:0", "2:1 6:1 10:1 14:1 18:1 22:1 26:1 30:1",
    "3:0 7:0 11:0 15:0 19:0 23:0 27:0 31:0", "3:1 7:1 11:1 15:1 19:1 23:1 27:1 31:1",
    "0:2 4:2 8:2 12:2 16:2 20:2 24:2 28:2", "0:3 4:3 8:3 12:3 16:3 20:3 24:3 28:3",
    "1:2 5:2 9:2 13:2 17:2 21:2 25:2 29:2", "1:3 5:3 9:3 13:3 17:3 21:3 25:3 29:3",
    "2:2 6:2 10:2 14:2 18:2 22:2 26:2 30:2", "2:3 6:3 10:3 14:3 18:3 22:3 26:3 30:3",
    "3:2 7:2 11:2 15:2 19:2 23:2 27:2 31:2", "3:3 7:3 11:3 15:3 19:3 23:3 27:3 31:3",
};

// Same section, Figure "MMA .m16n8k16 fragment layout for accumulator matrix C/D" (16 x 8).
const Figure kFigureC = {
    "0:0 0:1 1:0 1:1 2:0 2:1 3:0 3:1",         "4:0 4:1 5:0 5:1 6:0 6:1 7:0 7:1",
    "8:0 8:1 9:0 9:1 10:0 10:1 11:0 11:1",     "12:0 12:1 13:0 13:1 14:0 14:1 15:0 15:1",
    "16:0 16:1 17:0 17:1 18:0 18:1 19:0 19:1", "20:0 20:1 21:0 21:1 22:0 22:1 23:0 23:1",
    "24:0 24:1 25:0 25:1 26:0 26:1 27:0 27:1", "28:0 28:1 29:0 29:1 30:0 30:1 31:0 31:1",
    "0:2 0:3 1:2 1:3 2:2 2:3 3:2 3:3",         "4:2 4:3 5:2 5:3 6:2 6:3 7:2 7:3",
    "8:2 8:3 9:2 9:3 10:2 10:3 11:2 11:3",     "12:2 12:3 13:2 13:3 14:2 14:3 15:2 15:3",
    "16:2 16:3 17:2 17:3 18:2 18:3 19:2 19:3", "20:2 20:3 21:2 21:3 22:2 22:3 23:2 23:3",
    "24:2 24:3 25:2 25:3 26:2 26:3 27:2 27:3", "28:2 28:3 29:2 29:3 30:2 30:3 31:2 31:3",
};

// (lane, elem) -> (row, col) as the figure draws it; a slot drawn twice fails the test here.
std::map<std::pair<int, int>, std::pair<int, int>> read_figure(const Figure& fig, int cols) {
  std::map<std::pair<int, int>, std::pair<int, int>> slots;
  for (int row = 0; row < static_cast<int>(fig.size()); ++row) {
    std::istringstream in(fig[row]);
    std::string entry;
    int col = 0;
    for (; in >> entry; ++col) {
      const size_t colon = entry.find(':');
      const int lane = std::stoi(entry.substr(0, colon)), elem = std::stoi(entry.substr(colon + 1));
      EXPECT_TRUE(slots.emplace(std::make_pair(lane, elem), std::make_pair(row, col)).second)
          << "figure draws lane " << lane << " elem " << elem << " twice";
    }
    EXPECT_EQ(col, cols) << "figure row " << row;
  }
  return slots;
}

void expect_matches_figure(const char* op, Operand o, const Figure& fig, int rows, int cols) {
  SCOPED_TRACE(std::string(op) + " " + operand_name(o));
  const auto expected = read_figure(fig, cols);
  const FragmentLayout l = documented_layout(op_named(op), o);
  EXPECT_EQ(l.rows, rows);
  EXPECT_EQ(l.cols, cols);
  ASSERT_EQ(l.cells.size(), expected.size());
  for (const LayoutCell& c : l.cells) {
    const auto it = expected.find({c.lane, c.elem});
    ASSERT_NE(it, expected.end()) << "lane " << c.lane << " elem " << c.elem << " is not in the figure";
    EXPECT_EQ(std::make_pair(c.row, c.col), it->second) << "lane " << c.lane << " elem " << c.elem;
  }
}

TEST(LayoutDocumented, M16n8k16MatchesIsaFigures) {
  expect_matches_figure("mma.m16n8k16.f16", Operand::A, kFigureA, 16, 16);
  expect_matches_figure("mma.m16n8k16.f16", Operand::B, kFigureB, 16, 8);
  expect_matches_figure("mma.m16n8k16.f16", Operand::C, kFigureC, 16, 8);
}

struct Spot {
  const char* op;
  Operand operand;
  int lane, elem, row, col;
};

// Worked by hand from each section's row/col text (g = lane / 4, t = lane % 4 noted per lane).
const Spot kSpots[] = {
    // "Matrix Fragments for mma.m16n8k8", .f16
    {"mma.m16n8k8.f16", Operand::A, 0, 0, 0, 0},
    {"mma.m16n8k8.f16", Operand::A, 5, 0, 1, 2},    // g1 t1
    {"mma.m16n8k8.f16", Operand::A, 5, 3, 9, 3},
    {"mma.m16n8k8.f16", Operand::A, 31, 2, 15, 6},  // g7 t3
    {"mma.m16n8k8.f16", Operand::B, 6, 1, 5, 1},    // g1 t2
    {"mma.m16n8k8.f16", Operand::B, 31, 0, 6, 7},
    {"mma.m16n8k8.f16", Operand::C, 9, 2, 10, 2},   // g2 t1
    {"mma.m16n8k8.f16", Operand::C, 31, 3, 15, 7},
    // same section, .tf32: a1 is the row below a0, a2 four columns right
    {"mma.m16n8k8.tf32", Operand::A, 5, 0, 1, 1},
    {"mma.m16n8k8.tf32", Operand::A, 5, 1, 9, 1},
    {"mma.m16n8k8.tf32", Operand::A, 5, 2, 1, 5},
    {"mma.m16n8k8.tf32", Operand::A, 5, 3, 9, 5},
    {"mma.m16n8k8.tf32", Operand::A, 30, 3, 15, 6},  // g7 t2
    {"mma.m16n8k8.tf32", Operand::B, 6, 0, 2, 1},
    {"mma.m16n8k8.tf32", Operand::B, 6, 1, 6, 1},
    {"mma.m16n8k8.tf32", Operand::B, 31, 1, 7, 7},
    {"mma.m16n8k8.tf32", Operand::C, 14, 1, 3, 5},   // g3 t2
    // "Matrix Fragments for mma.m8n8k16"
    {"mma.m8n8k16.s8", Operand::A, 0, 2, 0, 2},
    {"mma.m8n8k16.s8", Operand::A, 7, 0, 1, 12},     // g1 t3
    {"mma.m8n8k16.s8", Operand::A, 7, 3, 1, 15},
    {"mma.m8n8k16.s8", Operand::B, 7, 2, 14, 1},
    {"mma.m8n8k16.s8", Operand::B, 29, 0, 4, 7},     // g7 t1
    {"mma.m8n8k16.s8", Operand::C, 7, 1, 1, 7},
    {"mma.m8n8k16.s8", Operand::C, 30, 0, 7, 4},     // g7 t2
    // "Matrix Fragments for mma.m16n8k32"
    {"mma.m16n8k32.s8", Operand::A, 6, 0, 1, 8},     // g1 t2
    {"mma.m16n8k32.s8", Operand::A, 6, 3, 1, 11},
    {"mma.m16n8k32.s8", Operand::A, 6, 4, 9, 8},
    {"mma.m16n8k32.s8", Operand::A, 6, 7, 9, 11},
    {"mma.m16n8k32.s8", Operand::A, 6, 8, 1, 24},
    {"mma.m16n8k32.s8", Operand::A, 6, 11, 1, 27},
    {"mma.m16n8k32.s8", Operand::A, 6, 12, 9, 24},
    {"mma.m16n8k32.s8", Operand::A, 6, 15, 9, 27},
    {"mma.m16n8k32.s8", Operand::A, 31, 15, 15, 31},
    {"mma.m16n8k32.s8", Operand::B, 6, 0, 8, 1},
    {"mma.m16n8k32.s8", Operand::B, 6, 3, 11, 1},
    {"mma.m16n8k32.s8", Operand::B, 6, 4, 24, 1},
    {"mma.m16n8k32.s8", Operand::B, 6, 7, 27, 1},
    {"mma.m16n8k32.s8", Operand::B, 31, 7, 31, 7},
    {"mma.m16n8k32.s8", Operand::C, 6, 0, 1, 4},
    {"mma.m16n8k32.s8", Operand::C, 6, 3, 9, 5},
};

TEST(LayoutDocumented, OtherOpsMatchIsaSpotChecks) {
  for (const Spot& s : kSpots) {
    const MmaOp& op = op_named(s.op);
    const FragmentLayout l = documented_layout(op, s.operand);
    const int elems = fragment_elems(op, s.operand);
    ASSERT_EQ(l.cells.size(), static_cast<size_t>(32 * elems)) << s.op;
    const LayoutCell& c = l.cells[s.lane * elems + s.elem];  // sorted by lane, then elem
    ASSERT_EQ(c.lane, s.lane);
    ASSERT_EQ(c.elem, s.elem);
    EXPECT_EQ(std::make_pair(c.row, c.col), std::make_pair(s.row, s.col))
        << s.op << " " << operand_name(s.operand) << " lane " << s.lane << " elem " << s.elem;
  }
}

TEST(LayoutDocumented, LabelledSortedAndSizedByOperand) {
  for (const MmaOp& op : mma_ops()) {
    if (!op.documented) continue;
    for (Operand o : op_operands(op)) {
      SCOPED_TRACE(op.name + " " + operand_name(o));
      const FragmentLayout l = documented_layout(op, o);
      const Extent e = operand_extent(op, o);
      EXPECT_EQ(l.op, op.name);
      EXPECT_EQ(l.operand, operand_name(o));
      EXPECT_EQ(l.source, "documented");
      EXPECT_EQ(l.rows, e.rows);
      EXPECT_EQ(l.cols, e.cols);
      const int elems = fragment_elems(op, o);
      ASSERT_EQ(l.cells.size(), static_cast<size_t>(op.threads * elems));
      for (size_t i = 0; i < l.cells.size(); ++i) {
        EXPECT_EQ(l.cells[i].lane, static_cast<int>(i) / elems);
        EXPECT_EQ(l.cells[i].elem, static_cast<int>(i) % elems);
      }
    }
  }
}

TEST(LayoutDocumented, WmmaHasNoDocumentedLayout) {
  int wmma = 0;
  for (const MmaOp& op : mma_ops()) {
    if (op.name.rfind("wmma.", 0) != 0) continue;
    ++wmma;
    EXPECT_FALSE(op.documented) << op.name;
    for (Operand o : {Operand::A, Operand::B, Operand::C}) {
      try {
        documented_layout(op, o);
        ADD_FAILURE() << op.name << " " << operand_name(o) << " did not throw";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(op.name), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_EQ(wmma, 3);
}

TEST(LayoutDocumented, UnknownOpThrows) {
  MmaOp op = op_named("mma.m16n8k16.f16");
  op.name = "mma.m16n8k4.tf32";
  EXPECT_THROW(documented_layout(op, Operand::A), std::invalid_argument);
}

TEST(LayoutOps, ListedInViewOrder) {
  std::vector<std::string> names;
  for (const MmaOp& op : mma_ops()) names.push_back(op.name);
  const std::vector<std::string> expected = {
      "mma.m16n8k16.f16",   "mma.m16n8k8.f16",   "mma.m16n8k8.tf32",  "mma.m8n8k16.s8",
      "mma.m16n8k32.s8",    "wmma.m16n16k16.f16", "wmma.m32n8k16.f16", "wmma.m8n32k16.f16",
      "ldmatrix.x1",        "ldmatrix.x2",        "ldmatrix.x4",       "ldmatrix.x1.trans",
      "ldmatrix.x2.trans",  "ldmatrix.x4.trans", "wgmma.m64n16k16.f16"};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(mma_op_names(), "mma.m16n8k16.f16, mma.m16n8k8.f16, mma.m16n8k8.tf32, mma.m8n8k16.s8, "
                            "mma.m16n8k32.s8, wmma.m16n16k16.f16, wmma.m32n8k16.f16, wmma.m8n32k16.f16, "
                            "ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, ldmatrix.x1.trans, ldmatrix.x2.trans, "
                            "ldmatrix.x4.trans, wgmma.m64n16k16.f16");
  EXPECT_EQ(mma_op_names("|").find("mma.m16n8k16.f16|mma.m16n8k8.f16|"), 0u);
  EXPECT_EQ(find_mma_op("mma.m8n8k16.s8"), &mma_ops()[3]);
  EXPECT_EQ(find_mma_op("mma.m16n8k16"), nullptr);
  EXPECT_EQ(find_mma_op(""), nullptr);
}

TEST(LayoutOps, ShapesTypesAndFragmentSizes) {
  struct Row {
    const char* name;
    int m, n, k;
    const char *a_type, *c_type;
    bool documented;
    int elems_a, elems_b, elems_c, bytes_a, bytes_c;
  };
  // Element counts: PTX ISA fragment tables for mma; CUDA's nvcuda::wmma fragment num_elements for wmma.
  const Row rows[] = {
      {"mma.m16n8k16.f16", 16, 8, 16, "f16", "f32", true, 8, 4, 4, 2, 4},
      {"mma.m16n8k8.f16", 16, 8, 8, "f16", "f32", true, 4, 2, 4, 2, 4},
      {"mma.m16n8k8.tf32", 16, 8, 8, "tf32", "f32", true, 4, 2, 4, 4, 4},
      {"mma.m8n8k16.s8", 8, 8, 16, "s8", "s32", true, 4, 4, 2, 1, 4},
      {"mma.m16n8k32.s8", 16, 8, 32, "s8", "s32", true, 16, 8, 4, 1, 4},
      {"wmma.m16n16k16.f16", 16, 16, 16, "f16", "f32", false, 16, 16, 8, 2, 4},
      {"wmma.m32n8k16.f16", 32, 8, 16, "f16", "f32", false, 16, 16, 8, 2, 4},
      {"wmma.m8n32k16.f16", 8, 32, 16, "f16", "f32", false, 16, 16, 8, 2, 4},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    const MmaOp& op = op_named(r.name);
    EXPECT_EQ(op.m, r.m);
    EXPECT_EQ(op.n, r.n);
    EXPECT_EQ(op.k, r.k);
    EXPECT_EQ(op.a_type, r.a_type);
    EXPECT_EQ(op.c_type, r.c_type);
    EXPECT_EQ(op.documented, r.documented);
    EXPECT_EQ(op.elems_a, r.elems_a);
    EXPECT_EQ(op.elems_b, r.elems_b);
    EXPECT_EQ(op.elems_c, r.elems_c);
    EXPECT_EQ(op.elem_bytes_a, r.bytes_a);
    EXPECT_EQ(op.elem_bytes_c, r.bytes_c);
    EXPECT_EQ(fragment_elems(op, Operand::A), r.elems_a);
    EXPECT_EQ(fragment_elems(op, Operand::B), r.elems_b);
    EXPECT_EQ(fragment_elems(op, Operand::C), r.elems_c);
    EXPECT_EQ(operand_extent(op, Operand::A).rows, r.m);
    EXPECT_EQ(operand_extent(op, Operand::A).cols, r.k);
    EXPECT_EQ(operand_extent(op, Operand::B).rows, r.k);
    EXPECT_EQ(operand_extent(op, Operand::B).cols, r.n);
    EXPECT_EQ(operand_extent(op, Operand::C).rows, r.m);
    EXPECT_EQ(operand_extent(op, Operand::C).cols, r.n);
    // A warp's slots cover the operand a whole number of times (once for every mma).
    for (Operand o : {Operand::A, Operand::B, Operand::C}) {
      const Extent e = operand_extent(op, o);
      const int slots = 32 * fragment_elems(op, o);
      EXPECT_EQ(slots % (e.rows * e.cols), 0) << operand_name(o);
      if (r.documented) {
        EXPECT_EQ(slots, e.rows * e.cols) << operand_name(o);
      }
    }
  }
}

TEST(LayoutOps, ParseOperand) {
  EXPECT_EQ(parse_operand("A"), Operand::A);
  EXPECT_EQ(parse_operand("B"), Operand::B);
  EXPECT_EQ(parse_operand("C"), Operand::C);
  EXPECT_EQ(parse_operand("D"), Operand::C);
  EXPECT_EQ(parse_operand("a"), Operand::A);
  EXPECT_EQ(parse_operand("d"), Operand::C);
  EXPECT_FALSE(parse_operand(""));
  EXPECT_FALSE(parse_operand("E"));
  EXPECT_FALSE(parse_operand("AB"));
  EXPECT_FALSE(parse_operand("A "));
  EXPECT_STREQ(operand_name(Operand::A), "A");
  EXPECT_STREQ(operand_name(Operand::B), "B");
  EXPECT_STREQ(operand_name(Operand::C), "C");
}

TEST(LayoutRegister, PacksSubWordElementsLowFirst) {
  const auto expect_slot = [](const char* name, Operand o, int elem, int reg, int part, int parts) {
    const RegSlot r = register_of(op_named(name), o, elem);
    EXPECT_EQ(r.reg, reg) << name << " " << operand_name(o) << " elem " << elem;
    EXPECT_EQ(r.part, part) << name << " " << operand_name(o) << " elem " << elem;
    EXPECT_EQ(r.parts, parts) << name << " " << operand_name(o) << " elem " << elem;
  };
  expect_slot("mma.m16n8k16.f16", Operand::A, 0, 0, 0, 2);   // a0: low half of the first .f16x2
  expect_slot("mma.m16n8k16.f16", Operand::A, 5, 2, 1, 2);   // a5: high half of the third
  expect_slot("mma.m16n8k16.f16", Operand::B, 3, 1, 1, 2);
  expect_slot("mma.m16n8k16.f16", Operand::C, 2, 2, 0, 1);   // f32 accumulators: one per register
  expect_slot("mma.m16n8k8.tf32", Operand::A, 3, 3, 0, 1);   // tf32 fills a .b32
  expect_slot("mma.m16n8k8.tf32", Operand::B, 1, 1, 0, 1);
  expect_slot("mma.m8n8k16.s8", Operand::A, 3, 0, 3, 4);     // four bytes in one .b32
  expect_slot("mma.m16n8k32.s8", Operand::A, 13, 3, 1, 4);
  expect_slot("mma.m16n8k32.s8", Operand::B, 4, 1, 0, 4);
  expect_slot("mma.m8n8k16.s8", Operand::C, 1, 1, 0, 1);
  expect_slot("wmma.m16n16k16.f16", Operand::A, 15, 7, 1, 2);  // 8 .f16x2 registers
  expect_slot("wmma.m16n16k16.f16", Operand::C, 7, 7, 0, 1);
}

TEST(LayoutRegister, RejectsElementOutsideFragment) {
  const MmaOp& op = op_named("mma.m16n8k16.f16");
  EXPECT_THROW(register_of(op, Operand::A, 8), std::out_of_range);
  EXPECT_THROW(register_of(op, Operand::B, 4), std::out_of_range);
  EXPECT_THROW(register_of(op, Operand::C, -1), std::out_of_range);
}

TEST(LayoutCoverage, EveryDocumentedOperandIsABijection) {
  int checked = 0;
  for (const MmaOp& op : mma_ops()) {
    if (!op.documented) continue;
    for (Operand o : op_operands(op)) {
      const Coverage cov = check_coverage(documented_layout(op, o), op.threads);
      EXPECT_TRUE(cov.ok) << op.name << " " << operand_name(o) << ": " << cov.problem;
      EXPECT_EQ(cov.multiplicity, 1) << op.name << " " << operand_name(o);
      EXPECT_EQ(cov.problem, "");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 15 + 6 + 1);  // 5 mma ops x A, B, C; 6 ldmatrix ops x their one tile; wgmma's C
}

FragmentLayout m16n8k16(Operand o) { return documented_layout(op_named("mma.m16n8k16.f16"), o); }

TEST(LayoutCoverage, DetectsDuplicateSlot) {
  FragmentLayout l = m16n8k16(Operand::A);
  l.cells.push_back(l.cells[3]);
  const Coverage cov = check_coverage(l);
  EXPECT_FALSE(cov.ok);
  EXPECT_EQ(cov.problem, "lane 0 elem 3 appears twice");
}

TEST(LayoutCoverage, DetectsCellOutsideOperand) {
  FragmentLayout l = m16n8k16(Operand::A);
  LayoutCell& c = l.cells[3 * 8 + 2];
  ASSERT_EQ(c.lane, 3);
  ASSERT_EQ(c.elem, 2);
  c.row = 17, c.col = 0;
  const Coverage cov = check_coverage(l);
  EXPECT_FALSE(cov.ok);
  EXPECT_EQ(cov.problem, "lane 3 elem 2 -> (17,0) is outside the 16x16 operand");

  FragmentLayout neg = m16n8k16(Operand::C);
  neg.cells[0].col = -1;
  EXPECT_EQ(check_coverage(neg).problem, "lane 0 elem 0 -> (0,-1) is outside the 16x8 operand");
}

TEST(LayoutCoverage, DetectsMissingElement) {
  FragmentLayout l = m16n8k16(Operand::B);
  // lane 5 elem 2 holds B(10,1); lane 5 keeps its other elements, so only the hole is wrong.
  l.cells.erase(l.cells.begin() + 5 * 4 + 2);
  const Coverage cov = check_coverage(l);
  EXPECT_FALSE(cov.ok);
  EXPECT_EQ(cov.problem, "element (10,1) is held by no slot");
}

TEST(LayoutCoverage, DetectsMissingLane) {
  FragmentLayout l = m16n8k16(Operand::C);
  l.cells.erase(std::remove_if(l.cells.begin(), l.cells.end(), [](const LayoutCell& c) { return c.lane == 31; }),
                l.cells.end());
  const Coverage cov = check_coverage(l);
  EXPECT_FALSE(cov.ok);
  EXPECT_EQ(cov.problem, "lane 31 holds no element");
  // A 16-lane layout is complete when the caller expects 16 lanes.
  FragmentLayout half;
  half.rows = 4, half.cols = 4;
  for (int lane = 0; lane < 16; ++lane) half.cells.push_back({lane, 0, lane / 4, lane % 4});
  EXPECT_TRUE(check_coverage(half, 16).ok);
  EXPECT_EQ(check_coverage(half).problem, "lane 16 holds no element");
}

TEST(LayoutCoverage, DetectsLaneOutsideWarp) {
  FragmentLayout l = m16n8k16(Operand::C);
  l.cells.push_back({32, 0, 0, 0});
  EXPECT_EQ(check_coverage(l).problem, "lane 32 elem 0: lane is outside 0..31");
}

// A wmma-like layout: the C fragment held twice, as elements 4..7 repeating 0..3.
FragmentLayout replicated_c() {
  FragmentLayout l = m16n8k16(Operand::C);
  const std::vector<LayoutCell> once = l.cells;
  for (const LayoutCell& c : once) l.cells.push_back({c.lane, c.elem + 4, c.row, c.col});
  return l;
}

TEST(LayoutCoverage, AcceptsUniformReplication) {
  const Coverage cov = check_coverage(replicated_c());
  EXPECT_TRUE(cov.ok) << cov.problem;
  EXPECT_EQ(cov.multiplicity, 2);
}

TEST(LayoutCoverage, DetectsUnevenReplication) {
  FragmentLayout l = replicated_c();
  // The last cell is lane 31 elem 7, the second copy of C(15,7).
  ASSERT_EQ(l.cells.back().lane, 31);
  l.cells.pop_back();
  const Coverage cov = check_coverage(l);
  EXPECT_FALSE(cov.ok);
  EXPECT_EQ(cov.problem, "element (15,7) is held by 1 slot but element (0,0) by 2 slots");
}

TEST(LayoutCoverage, DetectsEmptyLayout) {
  FragmentLayout l;
  EXPECT_FALSE(check_coverage(l).ok);
  EXPECT_EQ(check_coverage(l).problem, "the operand extent 0x0 is empty");
  l.rows = 16, l.cols = 8;
  EXPECT_EQ(check_coverage(l).problem, "the layout has no cells");
}

TEST(LayoutCsv, HeaderThenOneLinePerCell) {
  const FragmentLayout l = documented_layout(op_named("mma.m8n8k16.s8"), Operand::C);
  const std::string csv = layout_csv(l);
  EXPECT_EQ(csv.rfind("lane,elem,row,col\n0,0,0,0\n0,1,0,1\n1,0,0,2\n1,1,0,3\n2,0,0,4\n", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 64);
  EXPECT_EQ(csv.find('\r'), std::string::npos);
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(csv.back(), '\n');
  EXPECT_NE(csv.find("\n31,1,7,7\n"), std::string::npos);  // g7 t3: last row, last column
}

TEST(LayoutCsv, SortsByLaneThenElem) {
  FragmentLayout l;
  l.rows = 2, l.cols = 2;
  l.cells = {{1, 1, 1, 1}, {0, 1, 0, 1}, {1, 0, 1, 0}, {0, 0, 0, 0}};
  EXPECT_EQ(layout_csv(l), "lane,elem,row,col\n0,0,0,0\n0,1,0,1\n1,0,1,0\n1,1,1,1\n");
  l.cells.clear();
  EXPECT_EQ(layout_csv(l), "lane,elem,row,col\n");
}

// The CLI test diffs `gemmscope layout` against these files; keep them in step with the library.
TEST(LayoutCsv, MatchesGoldenFiles) {
  for (Operand o : {Operand::A, Operand::B, Operand::C}) {
    const std::string path =
        std::string(GEMMSCOPE_TEST_DATA) + "/layout_mma.m16n8k16.f16_" + operand_name(o) + ".csv";
    EXPECT_EQ(layout_csv(m16n8k16(o)), read_file(path)) << path;
  }
}

// ---- ldmatrix --------------------------------------------------------------------------------
// PTX ISA "Warp-level matrix load instruction: ldmatrix", .m8n8 .b16, written out here as figures
// rather than formulas: "a group of four threads loads an entire row", thread 0 receiving the row's
// first fragment (2 b16 elements, one 32-bit register). With .trans the eight addressed rows are the
// matrix's columns. Each further matrix fills the next register (elements 2j, 2j + 1 = register j).

// One 8x8 matrix (the ISA's figure "ldmatrix fragment layout for one 8x8 Matrix with 16-bit elements").
const Figure kLdmatrixX1 = {
    "0:0 0:1 1:0 1:1 2:0 2:1 3:0 3:1",         "4:0 4:1 5:0 5:1 6:0 6:1 7:0 7:1",
    "8:0 8:1 9:0 9:1 10:0 10:1 11:0 11:1",     "12:0 12:1 13:0 13:1 14:0 14:1 15:0 15:1",
    "16:0 16:1 17:0 17:1 18:0 18:1 19:0 19:1", "20:0 20:1 21:0 21:1 22:0 22:1 23:0 23:1",
    "24:0 24:1 25:0 25:1 26:0 26:1 27:0 27:1", "28:0 28:1 29:0 29:1 30:0 30:1 31:0 31:1",
};

// The same with .trans: the figure above, transposed (a lane's pair runs down a column).
const Figure kLdmatrixX1Trans = {
    "0:0 4:0 8:0 12:0 16:0 20:0 24:0 28:0", "0:1 4:1 8:1 12:1 16:1 20:1 24:1 28:1",
    "1:0 5:0 9:0 13:0 17:0 21:0 25:0 29:0", "1:1 5:1 9:1 13:1 17:1 21:1 25:1 29:1",
    "2:0 6:0 10:0 14:0 18:0 22:0 26:0 30:0", "2:1 6:1 10:1 14:1 18:1 22:1 26:1 30:1",
    "3:0 7:0 11:0 15:0 19:0 23:0 27:0 31:0", "3:1 7:1 11:1 15:1 19:1 23:1 27:1 31:1",
};

// .x4.trans in this tool's tiling (matrix 0 top-left, 1 bottom-left, 2 top-right, 3 bottom-right):
// each quadrant is kLdmatrixX1Trans with its elements offset by 2 x the matrix index.
const Figure kLdmatrixX4Trans = {
    "0:0 4:0 8:0 12:0 16:0 20:0 24:0 28:0 0:4 4:4 8:4 12:4 16:4 20:4 24:4 28:4",
    "0:1 4:1 8:1 12:1 16:1 20:1 24:1 28:1 0:5 4:5 8:5 12:5 16:5 20:5 24:5 28:5",
    "1:0 5:0 9:0 13:0 17:0 21:0 25:0 29:0 1:4 5:4 9:4 13:4 17:4 21:4 25:4 29:4",
    "1:1 5:1 9:1 13:1 17:1 21:1 25:1 29:1 1:5 5:5 9:5 13:5 17:5 21:5 25:5 29:5",
    "2:0 6:0 10:0 14:0 18:0 22:0 26:0 30:0 2:4 6:4 10:4 14:4 18:4 22:4 26:4 30:4",
    "2:1 6:1 10:1 14:1 18:1 22:1 26:1 30:1 2:5 6:5 10:5 14:5 18:5 22:5 26:5 30:5",
    "3:0 7:0 11:0 15:0 19:0 23:0 27:0 31:0 3:4 7:4 11:4 15:4 19:4 23:4 27:4 31:4",
    "3:1 7:1 11:1 15:1 19:1 23:1 27:1 31:1 3:5 7:5 11:5 15:5 19:5 23:5 27:5 31:5",
    "0:2 4:2 8:2 12:2 16:2 20:2 24:2 28:2 0:6 4:6 8:6 12:6 16:6 20:6 24:6 28:6",
    "0:3 4:3 8:3 12:3 16:3 20:3 24:3 28:3 0:7 4:7 8:7 12:7 16:7 20:7 24:7 28:7",
    "1:2 5:2 9:2 13:2 17:2 21:2 25:2 29:2 1:6 5:6 9:6 13:6 17:6 21:6 25:6 29:6",
    "1:3 5:3 9:3 13:3 17:3 21:3 25:3 29:3 1:7 5:7 9:7 13:7 17:7 21:7 25:7 29:7",
    "2:2 6:2 10:2 14:2 18:2 22:2 26:2 30:2 2:6 6:6 10:6 14:6 18:6 22:6 26:6 30:6",
    "2:3 6:3 10:3 14:3 18:3 22:3 26:3 30:3 2:7 6:7 10:7 14:7 18:7 22:7 26:7 30:7",
    "3:2 7:2 11:2 15:2 19:2 23:2 27:2 31:2 3:6 7:6 11:6 15:6 19:6 23:6 27:6 31:6",
    "3:3 7:3 11:3 15:3 19:3 23:3 27:3 31:3 3:7 7:7 11:7 15:7 19:7 23:7 27:7 31:7",
};

TEST(LayoutLdmatrix, MatchesIsaFigures) {
  expect_matches_figure("ldmatrix.x1", Operand::A, kLdmatrixX1, 8, 8);
  expect_matches_figure("ldmatrix.x1.trans", Operand::A, kLdmatrixX1Trans, 8, 8);
  // .x4 untransposed, tiled as this tool tiles it, is cell for cell mma.m16n8k16's A figure: the
  // registers ldmatrix.x4 fills are the a0..a7 that mma consumes (the reason for the tiling).
  expect_matches_figure("ldmatrix.x4", Operand::A, kFigureA, 16, 16);
  expect_matches_figure("ldmatrix.x4.trans", Operand::A, kLdmatrixX4Trans, 16, 16);
  // .x2.trans stacks two transposed matrices: mma.m16n8k16's B figure, loaded from a row-major k x n tile.
  expect_matches_figure("ldmatrix.x2.trans", Operand::A, kFigureB, 16, 8);
}

// .x2 untransposed: kLdmatrixX1 on top, the same with elements + 2 below (and m16n8k8's A, as promised).
TEST(LayoutLdmatrix, X2StacksTwoMatrices) {
  const FragmentLayout l = documented_layout(op_named("ldmatrix.x2"), Operand::A);
  ASSERT_EQ(l.rows, 16);
  ASSERT_EQ(l.cols, 8);
  const auto top = read_figure(kLdmatrixX1, 8);
  ASSERT_EQ(l.cells.size(), 2 * top.size());
  for (const LayoutCell& c : l.cells) {
    const auto it = top.find({c.lane, c.elem % 2});
    ASSERT_NE(it, top.end());
    EXPECT_EQ(std::make_pair(c.row, c.col), std::make_pair(it->second.first + 8 * (c.elem / 2), it->second.second))
        << "lane " << c.lane << " elem " << c.elem;
  }
  FragmentLayout a = documented_layout(op_named("mma.m16n8k8.f16"), Operand::A);
  a.op = l.op, a.operand = l.operand;
  EXPECT_EQ(a.cells, l.cells);
}

// Spot checks by hand from the ISA's words (g = lane / 4, q = lane % 4 noted per lane).
TEST(LayoutLdmatrix, SpotChecks) {
  const Spot spots[] = {
      {"ldmatrix.x4", Operand::A, 9, 0, 2, 2},         // g2 q1, matrix 0
      {"ldmatrix.x4", Operand::A, 9, 3, 10, 3},        // matrix 1 (bottom-left), high half
      {"ldmatrix.x4", Operand::A, 9, 4, 2, 10},        // matrix 2 (top-right)
      {"ldmatrix.x4", Operand::A, 31, 7, 15, 15},      // g7 q3, matrix 3, high half
      {"ldmatrix.x4.trans", Operand::A, 9, 0, 2, 2},   // rows 2q + h = 2, 3, column g = 2
      {"ldmatrix.x4.trans", Operand::A, 9, 1, 3, 2},
      {"ldmatrix.x4.trans", Operand::A, 6, 5, 5, 9},   // g1 q2, matrix 2: row 5, column 8 + 1
      {"ldmatrix.x4.trans", Operand::A, 30, 6, 12, 15},  // g7 q2, matrix 3, low half: row 8 + 4, column 8 + 7
      {"ldmatrix.x2", Operand::A, 13, 2, 11, 2},       // g3 q1, matrix 1
      {"ldmatrix.x2.trans", Operand::A, 13, 3, 11, 3},  // matrix 1: row 8 + 2 + 1, column 3
      {"ldmatrix.x1", Operand::A, 31, 1, 7, 7},
      {"ldmatrix.x1.trans", Operand::A, 31, 1, 7, 7},  // the corner is its own transpose
      {"ldmatrix.x1.trans", Operand::A, 1, 0, 2, 0},
  };
  for (const Spot& s : spots) {
    const MmaOp& op = op_named(s.op);
    const FragmentLayout l = documented_layout(op, s.operand);
    const LayoutCell& c = l.cells[s.lane * op.elems_a + s.elem];
    ASSERT_EQ(c.lane, s.lane);
    ASSERT_EQ(c.elem, s.elem);
    EXPECT_EQ(std::make_pair(c.row, c.col), std::make_pair(s.row, s.col))
        << s.op << " lane " << s.lane << " elem " << s.elem;
  }
}

TEST(LayoutLdmatrix, ShapesAndOneOperand) {
  struct Row {
    const char* name;
    int matrices;
    bool trans;
    int rows, cols;
  };
  const Row rows[] = {{"ldmatrix.x1", 1, false, 8, 8},        {"ldmatrix.x2", 2, false, 16, 8},
                      {"ldmatrix.x4", 4, false, 16, 16},      {"ldmatrix.x1.trans", 1, true, 8, 8},
                      {"ldmatrix.x2.trans", 2, true, 16, 8},  {"ldmatrix.x4.trans", 4, true, 16, 16}};
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    const MmaOp& op = op_named(r.name);
    EXPECT_EQ(op.kind, OpKind::Ldmatrix);
    EXPECT_TRUE(op.documented);
    EXPECT_EQ(op.matrices, r.matrices);
    EXPECT_EQ(op.trans, r.trans);
    EXPECT_EQ(op.a_type, "b16");
    EXPECT_EQ(operand_extent(op, Operand::A).rows, r.rows);
    EXPECT_EQ(operand_extent(op, Operand::A).cols, r.cols);
    EXPECT_EQ(fragment_elems(op, Operand::A), 2 * r.matrices);  // 2 b16 per matrix per lane
    EXPECT_EQ(32 * fragment_elems(op, Operand::A), r.rows * r.cols);
    EXPECT_EQ(op_operands(op), std::vector<Operand>{Operand::A});
    for (Operand o : {Operand::B, Operand::C}) {
      EXPECT_FALSE(has_operand(op, o));
      EXPECT_EQ(fragment_elems(op, o), 0);
      EXPECT_EQ(operand_extent(op, o).rows, 0);
      EXPECT_EQ(operand_extent(op, o).cols, 0);
      try {
        documented_layout(op, o);
        ADD_FAILURE() << operand_name(o) << " did not throw";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(std::string(r.name) + " has one operand: A"), std::string::npos)
            << e.what();
      }
      EXPECT_THROW(register_of(op, o, 0), std::out_of_range);
    }
    // One 32-bit register per matrix, low half first.
    for (int e = 0; e < 2 * r.matrices; ++e) {
      const RegSlot s = register_of(op, Operand::A, e);
      EXPECT_EQ(s.reg, e / 2);
      EXPECT_EQ(s.part, e % 2);
      EXPECT_EQ(s.parts, 2);
    }
    EXPECT_THROW(register_of(op, Operand::A, 2 * r.matrices), std::out_of_range);
  }
  // Products keep all three operands.
  EXPECT_EQ(op_operands(op_named("mma.m16n8k16.f16")), (std::vector<Operand>{Operand::A, Operand::B, Operand::C}));
  EXPECT_EQ(op_named("wmma.m16n16k16.f16").kind, OpKind::Mma);
  EXPECT_TRUE(has_operand(op_named("wmma.m16n16k16.f16"), Operand::C));
}

// "Threads 0-7: addr0-addr7 (rows of the first matrix), threads 8-15: addr8-addr15 (the second), ...":
// lane i supplies row i % 8 of matrix i / 8, for .trans as well (it changes who receives, not where).
TEST(LayoutLdmatrix, RowSuppliers) {
  const auto expect_row = [](const char* name, int lane, int matrix, int row, int col) {
    const std::vector<LdmatrixRow> rows = ldmatrix_rows(op_named(name));
    ASSERT_LT(lane, static_cast<int>(rows.size())) << name;
    const LdmatrixRow& r = rows[lane];
    EXPECT_EQ(r.lane, lane) << name;
    EXPECT_EQ(r.matrix, matrix) << name << " lane " << lane;
    EXPECT_EQ(r.row, row) << name << " lane " << lane;
    EXPECT_EQ(r.col, col) << name << " lane " << lane;
  };
  expect_row("ldmatrix.x1", 0, 0, 0, 0);
  expect_row("ldmatrix.x1", 7, 0, 7, 0);
  expect_row("ldmatrix.x2", 9, 1, 9, 0);      // matrix 1 sits below matrix 0
  expect_row("ldmatrix.x4", 9, 1, 9, 0);      // bottom-left
  expect_row("ldmatrix.x4", 17, 2, 1, 8);     // top-right
  expect_row("ldmatrix.x4", 31, 3, 15, 8);    // bottom-right
  expect_row("ldmatrix.x4.trans", 17, 2, 1, 8);
  expect_row("ldmatrix.x2.trans", 15, 1, 15, 0);
  for (const MmaOp& op : mma_ops()) {
    if (op.kind != OpKind::Ldmatrix) {
      EXPECT_THROW(ldmatrix_rows(op), std::invalid_argument) << op.name;
      continue;
    }
    SCOPED_TRACE(op.name);
    const std::vector<LdmatrixRow> rows = ldmatrix_rows(op);
    ASSERT_EQ(rows.size(), 8u * op.matrices);  // .x1 uses lanes 0-7 only, .x2 0-15
    // Every 16-byte row of the tile (8-column block of a tile row) has exactly one supplier, and a
    // matrix's origin is where its row 0 is.
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].lane, static_cast<int>(i));
      EXPECT_EQ(rows[i].col % 8, 0);
      EXPECT_TRUE(seen.emplace(rows[i].row, rows[i].col).second) << "row " << rows[i].row << " col " << rows[i].col;
      const TilePos o = ldmatrix_matrix_origin(op, rows[i].matrix);
      EXPECT_EQ(rows[i].row, o.row + static_cast<int>(i) % 8);
      EXPECT_EQ(rows[i].col, o.col);
    }
    EXPECT_EQ(static_cast<int>(seen.size()) * 8, op.m * op.k);
    EXPECT_THROW(ldmatrix_matrix_origin(op, op.matrices), std::out_of_range);
  }
}

// The element a lane receives comes from the row its supplier addressed: untransposed, lane t's row
// t / 4 of matrix j is the row lane 8 j + t / 4 supplied (same tile row, same 8-column block).
TEST(LayoutLdmatrix, ReceivedElementsLieInSuppliedRows) {
  for (const char* name : {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"}) {
    const MmaOp& op = op_named(name);
    const std::vector<LdmatrixRow> rows = ldmatrix_rows(op);
    for (const LayoutCell& c : documented_layout(op, Operand::A).cells) {
      const LdmatrixRow& r = rows[8 * (c.elem / 2) + c.lane / 4];
      EXPECT_EQ(c.row, r.row) << name << " lane " << c.lane << " elem " << c.elem;
      EXPECT_EQ(c.col / 8 * 8, r.col) << name << " lane " << c.lane << " elem " << c.elem;
    }
  }
}


// wgmma.m64n16k16's accumulator, from the PTX ISA figure "WGMMA .m64nNk16 register fragment layout for
// accumulator matrix D", cell by cell: thread 0 holds (0,0) (0,1) (8,0) (8,1) (0,8) (0,9) (8,8) (8,9); thread 37
// (warp 1, lane 5: g = 1, t = 1) holds (17,2) (17,3) (25,2) (25,3) (17,10) (17,11) (25,10) (25,11); thread 127
// (warp 3, lane 31: g = 7, t = 3) the last column pair of rows 55 and 63 in each 8-column block.
TEST(LayoutDocumented, WgmmaAccumulatorFollowsTheIsaFigure) {
  const MmaOp& op = op_named("wgmma.m64n16k16.f16");
  EXPECT_EQ(op.kind, OpKind::Wgmma);
  EXPECT_EQ(op.threads, 128);
  EXPECT_EQ(op_operands(op), std::vector<Operand>{Operand::C});
  EXPECT_THROW(documented_layout(op, Operand::A), std::invalid_argument);
  const FragmentLayout l = documented_layout(op, Operand::C);
  ASSERT_EQ(l.cells.size(), 128u * 8);
  auto cells_of = [&](int thread) {
    std::vector<std::pair<int, int>> v;
    for (const LayoutCell& c : l.cells)
      if (c.lane == thread) v.push_back({c.row, c.col});
    return v;
  };
  using P = std::vector<std::pair<int, int>>;
  EXPECT_EQ(cells_of(0), (P{{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9}}));
  EXPECT_EQ(cells_of(37), (P{{17, 2}, {17, 3}, {25, 2}, {25, 3}, {17, 10}, {17, 11}, {25, 10}, {25, 11}}));
  EXPECT_EQ(cells_of(127), (P{{55, 6}, {55, 7}, {63, 6}, {63, 7}, {55, 14}, {55, 15}, {63, 14}, {63, 15}}));
  const Coverage cov = check_coverage(l, 128);
  EXPECT_TRUE(cov.ok) << cov.problem;
  // A warp's 16 rows are mma.m16n8's accumulator, once per 8-column block.
  const FragmentLayout m16n8 = documented_layout(op_named("mma.m16n8k16.f16"), Operand::C);
  for (const LayoutCell& c : l.cells) {
    const LayoutCell& m = m16n8.cells[size_t(c.lane % 32) * 4 + c.elem % 4];
    EXPECT_EQ(c.row, 16 * (c.lane / 32) + m.row);
    EXPECT_EQ(c.col, 8 * (c.elem / 4) + m.col);
  }
}

}  // namespace
}  // namespace gs
