#include "core/layout.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <utility>

namespace gs {

namespace {

// Where fragment element i of a lane lands in its operand. Every documented mma layout is a
// function of the lane's group coordinates only: g = groupID = lane >> 2 (8 groups of 4 lanes),
// t = threadID_in_group = lane % 4.
struct Place { int row, col; };
using PlaceFn = Place (*)(int g, int t, int i);

// Formulas transcribed from the PTX ISA, section 9.7.14.5 "Matrix Fragments for mma.mMnNkK"
// (ISA 8.x numbering; the titles below are the stable part). Element i counts from the lowest
// bits of the lowest register, as the ISA's "Elements (low to high)" column does.

// "Matrix Fragments for mma.m16n8k16 with floating point type", A (.f16): the four .f16x2
// registers walk the 8x8 quadrants top-left, bottom-left, top-right, bottom-right.
Place m16n8k16_f16_a(int g, int t, int i) { return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)}; }
// Same section, B (.f16): a register holds two k-adjacent elements of column g; b2,b3 are k + 8.
Place m16n8k16_f16_b(int g, int t, int i) { return {2 * t + (i & 1) + 8 * (i >> 1), g}; }
// Accumulator of every m16n8 shape here ("mma.m16n8k8", "mma.m16n8k16 with floating point type",
// "mma.m16n8k32"): c0,c1 are two n-adjacent elements of row g, c2,c3 the same in row g + 8.
Place m16n8_c(int g, int t, int i) { return {g + 8 * (i >> 1), 2 * t + (i & 1)}; }

// "Matrix Fragments for mma.m16n8k8", A (.f16): the top and bottom 8x8 halves, one register each.
Place m16n8k8_f16_a(int g, int t, int i) { return {g + 8 * (i >> 1), 2 * t + (i & 1)}; }
// Same section, B (.f16): one register, two k-adjacent elements of column g.
Place m16n8k8_f16_b(int g, int t, int i) { return {2 * t + i, g}; }
// Same section, A (.tf32): one element per register; rows alternate first (a0 g, a1 g + 8),
// then columns (a2,a3 are k + 4), so a lane's elements are never k-adjacent.
Place m16n8k8_tf32_a(int g, int t, int i) { return {g + 8 * (i & 1), t + 4 * (i >> 1)}; }
// Same section, B (.tf32): b0 at k = t, b1 at k = t + 4, both in column g.
Place m16n8k8_tf32_b(int g, int t, int i) { return {t + 4 * i, g}; }

// "Matrix Fragments for mma.m8n8k16", A (.s8): one .b32 holds four k-adjacent bytes of row g.
Place m8n8k16_s8_a(int g, int t, int i) { return {g, 4 * t + i}; }
// Same section, B (.s8): four k-adjacent bytes of column g.
Place m8n8k16_s8_b(int g, int t, int i) { return {4 * t + i, g}; }
// Same section, C (.s32): two n-adjacent elements of row g; the 8x8 tile needs no second half.
Place m8n8k16_s32_c(int g, int t, int i) { return {g, 2 * t + i}; }

// "Matrix Fragments for mma.m16n8k32", A (.s8): four .b32 registers of four k-adjacent bytes each,
// walking the 8x16 blocks top-left, bottom-left, top-right, bottom-right.
Place m16n8k32_s8_a(int g, int t, int i) { return {g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)}; }
// Same section, B (.s8): two registers of four k-adjacent bytes of column g; b4..b7 are k + 16.
Place m16n8k32_s8_b(int g, int t, int i) { return {4 * t + (i & 3) + 16 * (i >> 2), g}; }

// ---- ldmatrix -----------------------------------------------------------------------------------
// PTX ISA "Warp-level matrix load instruction: ldmatrix", .m8n8 with .b16 elements: a group of four
// consecutive threads loads one 16-byte row, "thread 0 receiving the first fragment in its register,
// and so on" (the figure "ldmatrix fragment layout for one 8x8 Matrix with 16-bit elements"): thread
// t gets row t / 4, columns 2 (t % 4) and 2 (t % 4) + 1 (the lower address in the low half, as a
// little-endian 32-bit word holds it). Each further matrix goes to the next destination register.
// .trans loads the matrix "in column-major format": the eight addressed rows become columns, so thread
// t gets the two elements at position t / 4 of addressed rows 2 (t % 4) and 2 (t % 4) + 1.
//
// The tiling of the matrices into one operand is a choice of this tool, not the ISA's: matrix j sits
// where mma.m16n8k16's fragments want it, so that the registers a lane receives are directly an mma
// operand. .x2 stacks its two matrices into 16x8 (matrix 1 below matrix 0): untransposed that is
// m16n8k8's A, with .trans it is m16n8k16's B read from a row-major k x n tile. .x4 walks the 16x16
// quadrants top-left, bottom-left, top-right, bottom-right: untransposed, registers r0..r3 are exactly
// m16n8k16's a0..a7; with .trans they are the B fragments of two n-adjacent m16n8k16 tiles.
Place ldmatrix_place(const MmaOp& op, int g, int t, int i) {
  const int j = i >> 1, half = i & 1;  // register j holds matrix j, element i in its low or high half
  const TilePos o = ldmatrix_matrix_origin(op, j);
  if (op.trans) return {o.row + 2 * t + half, o.col + g};
  return {o.row + g, o.col + 2 * t + half};
}

// ---- wgmma ---------------------------------------------------------------------------------------
// PTX ISA "Matrix Fragments for wgmma.mma_async.m64nNk16", figure "WGMMA .m64nNk16 register fragment layout
// for accumulator matrix D": warp w of the warpgroup holds rows 16w .. 16w + 15, and within them each warp's
// registers repeat mma.m16n8's accumulator once per 8 columns: d[4j + i] is m16n8_c's element i of the j-th
// 8-column block. So thread T (warp T / 32, lane T % 32, g and t of that lane) holds element i at
//   row 16 (T / 32) + g + 8 ((i / 2) % 2),  col 8 (i / 4) + 2 t + i % 2.
Place wgmma_c(int thread, int i) {
  const int lane = thread % 32;
  const Place p = m16n8_c(lane >> 2, lane % 4, i % 4);
  return {16 * (thread / 32) + p.row, 8 * (i / 4) + p.col};
}

struct Documented {
  std::string_view op;
  PlaceFn a, b, c;
};

constexpr Documented kDocumented[] = {
    {"mma.m16n8k16.f16", m16n8k16_f16_a, m16n8k16_f16_b, m16n8_c},
    {"mma.m16n8k8.f16", m16n8k8_f16_a, m16n8k8_f16_b, m16n8_c},
    {"mma.m16n8k8.tf32", m16n8k8_tf32_a, m16n8k8_tf32_b, m16n8_c},
    {"mma.m8n8k16.s8", m8n8k16_s8_a, m8n8k16_s8_b, m8n8k16_s32_c},
    {"mma.m16n8k32.s8", m16n8k32_s8_a, m16n8k32_s8_b, m16n8_c},
};

MmaOp make_op(const char* name, int m, int n, int k, const char* a_type, const char* c_type, bool documented,
              int elems_a, int elems_b, int elems_c, int elem_bytes_a, int elem_bytes_c) {
  MmaOp op;
  op.name = name;
  op.m = m, op.n = n, op.k = k;
  op.a_type = a_type;
  op.c_type = c_type;
  op.documented = documented;
  op.elems_a = elems_a, op.elems_b = elems_b, op.elems_c = elems_c;
  op.elem_bytes_a = elem_bytes_a, op.elem_bytes_c = elem_bytes_c;
  return op;
}

// wgmma.m64nNk16 with fp16 inputs and an fp32 accumulator: N / 2 fp32 registers per thread of 128.
MmaOp make_wgmma(const char* name, int n) {
  MmaOp op = make_op(name, 64, n, 16, "f16", "f32", true, 0, 0, n / 2, 2, 4);
  op.kind = OpKind::Wgmma;
  op.threads = 128;
  return op;
}

MmaOp make_ldmatrix(const char* name, int matrices, bool trans) {
  // Tile extent from the tiling above: .x1 8x8, .x2 16x8, .x4 16x16 (rows x columns = m x k).
  MmaOp op = make_op(name, matrices == 1 ? 8 : 16, 0, matrices == 4 ? 16 : 8, "b16", "", true, 2 * matrices, 0, 0,
                     2, 0);
  op.kind = OpKind::Ldmatrix;
  op.matrices = matrices;
  op.trans = trans;
  return op;
}

std::string cell_name(int lane, int elem) {
  return "lane " + std::to_string(lane) + " elem " + std::to_string(elem);
}

std::string at(int row, int col) { return "(" + std::to_string(row) + "," + std::to_string(col) + ")"; }

std::string slots(int count) { return std::to_string(count) + (count == 1 ? " slot" : " slots"); }

}  // namespace

std::optional<Operand> parse_operand(std::string_view s) {
  if (s.size() != 1) return std::nullopt;
  switch (std::toupper(static_cast<unsigned char>(s[0]))) {
    case 'A': return Operand::A;
    case 'B': return Operand::B;
    case 'C':
    case 'D': return Operand::C;  // D has C's layout: mma reads C and writes D through the same fragment
    default: return std::nullopt;
  }
}

const char* operand_name(Operand o) {
  switch (o) {
    case Operand::A: return "A";
    case Operand::B: return "B";
    case Operand::C: return "C";
  }
  return "?";
}

const std::vector<MmaOp>& mma_ops() {
  // mma fragments are bijections: 32 x elems equals the operand's size. wmma's f16 A and B
  // fragments (8 .f16x2 registers, nvcuda::wmma num_elements = 16) can hold more slots than
  // the operand has elements (m16n16k16 A: 512 slots for 256), so a traced one may repeat elements.
  static const std::vector<MmaOp> ops = {
      make_op("mma.m16n8k16.f16", 16, 8, 16, "f16", "f32", true, 8, 4, 4, 2, 4),
      make_op("mma.m16n8k8.f16", 16, 8, 8, "f16", "f32", true, 4, 2, 4, 2, 4),
      make_op("mma.m16n8k8.tf32", 16, 8, 8, "tf32", "f32", true, 4, 2, 4, 4, 4),  // tf32 fills a .b32
      make_op("mma.m8n8k16.s8", 8, 8, 16, "s8", "s32", true, 4, 4, 2, 1, 4),
      make_op("mma.m16n8k32.s8", 16, 8, 32, "s8", "s32", true, 16, 8, 4, 1, 4),
      make_op("wmma.m16n16k16.f16", 16, 16, 16, "f16", "f32", false, 16, 16, 8, 2, 4),
      make_op("wmma.m32n8k16.f16", 32, 8, 16, "f16", "f32", false, 16, 16, 8, 2, 4),
      make_op("wmma.m8n32k16.f16", 8, 32, 16, "f16", "f32", false, 16, 16, 8, 2, 4),
      // ldmatrix: 2 b16 elements per matrix per lane, 32 lanes x 2 = 64 = one 8x8 matrix: bijections too.
      make_ldmatrix("ldmatrix.x1", 1, false),
      make_ldmatrix("ldmatrix.x2", 2, false),
      make_ldmatrix("ldmatrix.x4", 4, false),
      make_ldmatrix("ldmatrix.x1.trans", 1, true),
      make_ldmatrix("ldmatrix.x2.trans", 2, true),
      make_ldmatrix("ldmatrix.x4.trans", 4, true),
      // The hopper rungs issue m64n256k16 (and 01 m64n128k16): the same 8-column block 32 (16) times over.
      // N = 16 keeps every cell readable and shows two of the blocks.
      make_wgmma("wgmma.m64n16k16.f16", 16),
  };
  return ops;
}

const MmaOp* find_mma_op(std::string_view name) {
  for (const MmaOp& op : mma_ops())
    if (op.name == name) return &op;
  return nullptr;
}

std::string mma_op_names(const char* sep) {
  std::string out;
  for (const MmaOp& op : mma_ops()) {
    if (!out.empty() && sep) out += sep;
    out += op.name;
  }
  return out;
}

bool has_operand(const MmaOp& op, Operand o) {
  if (op.kind == OpKind::Ldmatrix) return o == Operand::A;
  if (op.kind == OpKind::Wgmma) return o == Operand::C;
  return true;
}

std::vector<Operand> op_operands(const MmaOp& op) {
  if (op.kind == OpKind::Ldmatrix) return {Operand::A};
  if (op.kind == OpKind::Wgmma) return {Operand::C};
  return {Operand::A, Operand::B, Operand::C};
}

Extent operand_extent(const MmaOp& op, Operand o) {
  if (!has_operand(op, o)) return {};
  switch (o) {
    case Operand::A: return {op.m, op.k};
    case Operand::B: return {op.k, op.n};
    case Operand::C: return {op.m, op.n};
  }
  return {};
}

int fragment_elems(const MmaOp& op, Operand o) {
  if (!has_operand(op, o)) return 0;
  switch (o) {
    case Operand::A: return op.elems_a;
    case Operand::B: return op.elems_b;
    case Operand::C: return op.elems_c;
  }
  return 0;
}

FragmentLayout documented_layout(const MmaOp& op, Operand o) {
  if (!op.documented)
    throw std::invalid_argument(op.name + " has no documented layout: PTX leaves wmma fragment layouts "
                                          "unspecified, so only a layout traced on a GPU exists");
  if (!has_operand(op, o) && op.kind == OpKind::Wgmma)
    throw std::invalid_argument(op.name + " has a register layout for C only: the hopper rungs give wgmma A and B "
                                          "in shared memory, through descriptors; it has no " + std::string(operand_name(o)));
  if (!has_operand(op, o))
    throw std::invalid_argument(op.name + " has one operand: A (the loaded tile); it has no " + operand_name(o));
  PlaceFn place = nullptr;
  if (op.kind == OpKind::Mma) {
    const auto it = std::find_if(std::begin(kDocumented), std::end(kDocumented),
                                 [&](const Documented& d) { return d.op == op.name; });
    if (it == std::end(kDocumented))
      throw std::invalid_argument("no documented layout for op '" + op.name + "'; known: " + mma_op_names());
    place = o == Operand::A ? it->a : o == Operand::B ? it->b : it->c;
  } else if (op.kind == OpKind::Ldmatrix && op.matrices != 1 && op.matrices != 2 && op.matrices != 4) {
    throw std::invalid_argument(op.name + ": ldmatrix loads 1, 2 or 4 matrices, not " + std::to_string(op.matrices));
  }

  FragmentLayout l;
  l.op = op.name;
  l.operand = operand_name(o);
  l.source = "documented";
  const Extent e = operand_extent(op, o);
  l.rows = e.rows, l.cols = e.cols;
  const int elems = fragment_elems(op, o);
  l.cells.reserve(size_t(op.threads) * elems);
  for (int lane = 0; lane < op.threads; ++lane)  // lane-major, elem-minor: already in the promised order
    for (int elem = 0; elem < elems; ++elem) {
      const Place p = op.kind == OpKind::Wgmma ? wgmma_c(lane, elem)
                      : place                  ? place(lane >> 2, lane % 4, elem)
                                               : ldmatrix_place(op, lane >> 2, lane % 4, elem);
      l.cells.push_back({lane, elem, p.row, p.col});
    }
  return l;
}

TilePos ldmatrix_matrix_origin(const MmaOp& op, int matrix) {
  if (op.kind != OpKind::Ldmatrix) throw std::invalid_argument(op.name + " is not an ldmatrix op");
  if (matrix < 0 || matrix >= op.matrices)
    throw std::out_of_range(op.name + " loads " + std::to_string(op.matrices) + " matrices; matrix " +
                            std::to_string(matrix) + " is out of range");
  // .x4: quadrants in a0..a7 order (down first, then right); .x2: stacked; .x1: the tile itself.
  if (op.matrices == 4) return {8 * (matrix & 1), 8 * (matrix >> 1)};
  return {8 * matrix, 0};
}

std::vector<LdmatrixRow> ldmatrix_rows(const MmaOp& op) {
  if (op.kind != OpKind::Ldmatrix) throw std::invalid_argument(op.name + " is not an ldmatrix op");
  std::vector<LdmatrixRow> rows;
  rows.reserve(8 * op.matrices);
  for (int lane = 0; lane < 8 * op.matrices; ++lane) {  // lanes past 8 * matrices supply nothing
    const int matrix = lane / 8;
    const TilePos o = ldmatrix_matrix_origin(op, matrix);
    // The address row stays a tile row with or without .trans: .trans changes who receives what, not
    // where the 16 bytes are read from.
    rows.push_back({matrix, o.row + lane % 8, o.col, lane});
  }
  return rows;
}

std::string layout_csv(const FragmentLayout& l) {
  // A traced layout arrives in whatever order the probe wrote it; the CSV order is part of the CLI contract.
  std::vector<LayoutCell> cells = l.cells;
  std::stable_sort(cells.begin(), cells.end(), [](const LayoutCell& x, const LayoutCell& y) {
    return x.lane != y.lane ? x.lane < y.lane : x.elem < y.elem;
  });
  std::string out = "lane,elem,row,col\n";
  out.reserve(out.size() + cells.size() * 12);
  for (const LayoutCell& c : cells) {
    out += std::to_string(c.lane) + ',' + std::to_string(c.elem) + ',' + std::to_string(c.row) + ',' +
           std::to_string(c.col) + '\n';
  }
  return out;
}

Coverage check_coverage(const FragmentLayout& l, int lanes_expected) {
  Coverage cov;
  const auto fail = [&cov](std::string problem) {
    cov.problem = std::move(problem);
    return cov;
  };
  const std::string dims = std::to_string(l.rows) + "x" + std::to_string(l.cols);
  if (l.rows <= 0 || l.cols <= 0) return fail("the operand extent " + dims + " is empty");
  if (l.cells.empty()) return fail("the layout has no cells");

  std::vector<int> held(static_cast<size_t>(l.rows) * l.cols, 0);  // slots per element, row-major
  std::vector<bool> lane_seen(std::max(lanes_expected, 0), false);
  std::set<std::pair<int, int>> seen;  // (lane, elem)
  for (const LayoutCell& c : l.cells) {
    if (c.lane < 0 || c.lane >= lanes_expected)
      return fail(cell_name(c.lane, c.elem) + ": lane is outside 0.." + std::to_string(lanes_expected - 1));
    if (c.elem < 0) return fail(cell_name(c.lane, c.elem) + ": negative element index");
    if (c.row < 0 || c.row >= l.rows || c.col < 0 || c.col >= l.cols)
      return fail(cell_name(c.lane, c.elem) + " -> " + at(c.row, c.col) + " is outside the " + dims + " operand");
    if (!seen.emplace(c.lane, c.elem).second) return fail(cell_name(c.lane, c.elem) + " appears twice");
    lane_seen[c.lane] = true;
    ++held[static_cast<size_t>(c.row) * l.cols + c.col];
  }
  for (int lane = 0; lane < lanes_expected; ++lane)
    if (!lane_seen[lane]) return fail("lane " + std::to_string(lane) + " holds no element");
  // Report a hole before an uneven count: a missing element is the likelier bug and the clearer message.
  const auto count = [&](int row, int col) { return held[static_cast<size_t>(row) * l.cols + col]; };
  for (int row = 0; row < l.rows; ++row)
    for (int col = 0; col < l.cols; ++col)
      if (count(row, col) == 0) return fail("element " + at(row, col) + " is held by no slot");
  for (int row = 0; row < l.rows; ++row)
    for (int col = 0; col < l.cols; ++col)
      if (count(row, col) != count(0, 0))
        return fail("element " + at(row, col) + " is held by " + slots(count(row, col)) + " but element (0,0) by " +
                    slots(count(0, 0)));
  cov.ok = true;
  cov.multiplicity = count(0, 0);
  return cov;
}

RegSlot register_of(const MmaOp& op, Operand o, int elem) {
  const int elems = fragment_elems(op, o);
  if (elem < 0 || elem >= elems)
    throw std::out_of_range(op.name + " " + operand_name(o) + " has " + std::to_string(elems) +
                            " elements per lane; elem " + std::to_string(elem) + " is out of range");
  // Sub-word elements pack low half (or low byte) first, so consecutive elems share a register.
  const int bytes = o == Operand::C ? op.elem_bytes_c : op.elem_bytes_a;
  RegSlot r;
  r.parts = bytes > 0 && bytes < 4 ? 4 / bytes : 1;
  r.reg = elem / r.parts;
  r.part = elem % r.parts;
  return r;
}

}  // namespace gs
