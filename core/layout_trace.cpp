#include "core/layout_trace.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gs {

namespace {

// What the probe fills D with before a launch: NaN as f32, -1 as s32, so a slot the GPU never
// wrote decodes as nothing rather than as element (0,0).
constexpr uint32_t kPoison = 0xFFFFFFFFu;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

std::string at(int row, int col) { return "(" + std::to_string(row) + "," + std::to_string(col) + ")"; }

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

bool is_integer(double v) { return std::isfinite(v) && v == std::floor(v); }

FragmentLayout traced_layout(const MmaOp& op, Operand o) {
  FragmentLayout l;
  l.op = op.name;
  l.operand = operand_name(o);
  l.source = "traced";
  const Extent e = operand_extent(op, o);
  l.rows = e.rows, l.cols = e.cols;
  l.cells.reserve(32 * static_cast<size_t>(fragment_elems(op, o)));
  return l;
}

// A layout that places values or models the hardware must name real slots and real elements:
// anything else would index outside the register arrays or the operand.
void check_layout(const MmaOp& op, Operand o, const FragmentLayout& l) {
  const std::string what = op.name + " " + operand_name(o) + " layout";
  const Extent e = operand_extent(op, o);
  const int elems = fragment_elems(op, o);
  for (const LayoutCell& c : l.cells) {
    require(c.lane >= 0 && c.lane < 32 && c.elem >= 0 && c.elem < elems,
            what + ": lane " + std::to_string(c.lane) + " elem " + std::to_string(c.elem) + " is not a fragment slot");
    require(c.row >= 0 && c.row < e.rows && c.col >= 0 && c.col < e.cols,
            what + ": " + at(c.row, c.col) + " is outside the operand");
  }
}

void check_layouts(const MmaOp& op, const MmaLayouts& l) {
  check_layout(op, Operand::A, l.a);
  check_layout(op, Operand::B, l.b);
  check_layout(op, Operand::C, l.c);
}

// Bits of integer v in the op's input type; placed into a register part by set_elem.
uint32_t encode_input(const MmaOp& op, int v) {
  if (op.a_type == "f16") return half_bits(v);
  // Small integers leave the 13 low mantissa bits that tf32 ignores at zero: no rounding question.
  if (op.a_type == "tf32") return float_bits(static_cast<float>(v));
  if (op.a_type == "s8") {
    require(v >= -128 && v <= 127, op.name + ": " + std::to_string(v) + " does not fit s8");
    return static_cast<uint32_t>(v) & 0xFFu;
  }
  throw std::invalid_argument(op.name + ": no probe encoding for input type '" + op.a_type + "'");
}

double decode_input(const MmaOp& op, uint32_t bits) {
  if (op.a_type == "f16") return half_value(static_cast<uint16_t>(bits));
  if (op.a_type == "tf32") return bits_float(bits & 0xFFFFE000u);  // what the tensor core reads of it
  if (op.a_type == "s8") return static_cast<int8_t>(static_cast<uint8_t>(bits));
  throw std::invalid_argument(op.name + ": no probe encoding for input type '" + op.a_type + "'");
}

uint32_t encode_acc(const MmaOp& op, double v) {
  if (op.c_type == "f32") return float_bits(static_cast<float>(v));
  if (op.c_type == "s32") return static_cast<uint32_t>(static_cast<int32_t>(v));
  throw std::invalid_argument(op.name + ": no probe encoding for accumulator type '" + op.c_type + "'");
}

double decode_acc(const MmaOp& op, uint32_t word) {
  if (op.c_type == "f32") return bits_float(word);
  if (op.c_type == "s32") return static_cast<int32_t>(word);
  throw std::invalid_argument(op.name + ": no probe encoding for accumulator type '" + op.c_type + "'");
}

// One operand's registers inside a batch array: [experiment][lane][reg], elements packed by
// register_of (element 2j in the low half of register j, bytes low first).
struct Regs {
  const MmaOp& op;
  Operand o;
  int regs;

  size_t word(int experiment, int lane, int reg) const {
    return (static_cast<size_t>(experiment) * 32 + lane) * regs + reg;
  }
  uint32_t get(const std::vector<uint32_t>& w, int experiment, int lane, int elem) const {
    const RegSlot s = register_of(op, o, elem);
    const int width = 32 / s.parts;
    const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
    return (w[word(experiment, lane, s.reg)] >> (s.part * width)) & mask;
  }
  void set(std::vector<uint32_t>& w, int experiment, int lane, int elem, uint32_t bits) const {
    const RegSlot s = register_of(op, o, elem);
    const int width = 32 / s.parts;
    const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
    uint32_t& x = w[word(experiment, lane, s.reg)];
    x = (x & ~(mask << (s.part * width))) | ((bits & mask) << (s.part * width));
  }
  // Every slot the layout names gets value(row, col) of the element it holds.
  template <class F>
  void place(std::vector<uint32_t>& w, int experiment, const FragmentLayout& l, F value) const {
    for (const LayoutCell& c : l.cells) set(w, experiment, c.lane, c.elem, encode_input(op, value(c.row, c.col)));
  }
};

int experiments_of(const MmaOp& op) { return 1 + 32 * (op.elems_a + op.elems_b); }
int a_experiment(const MmaOp& op, int lane, int elem) { return 1 + lane * op.elems_a + elem; }
int b_experiment(const MmaOp& op, int lane, int elem) { return 1 + 32 * op.elems_a + lane * op.elems_b + elem; }

// The single line of D that an A experiment (a row) or a B experiment (a column) lights up, read
// through the assumed D layout. True with the line and k = value - 1 only if exactly that line is
// nonzero, every element of it is, and all hold the same value in 1..K; anything else (two lines,
// a hole, poison, disagreeing values) means the other operands' layouts or the GPU disagree with
// what was assumed, and the caller records the impossible cell.
bool lit_line(const MmaOp& op, const FragmentLayout& d_layout, const std::vector<uint32_t>& d, int experiment,
              bool row_lit, int* line, int* k) {
  const Regs dregs{op, Operand::C, mma_registers(op, Operand::C)};
  const int span = row_lit ? op.n : op.m;  // elements along the lit line
  std::vector<bool> seen(span, false);
  int lit = 0, first_line = -1;
  double first_value = 0;
  for (const LayoutCell& c : d_layout.cells) {
    const double v = decode_acc(op, dregs.get(d, experiment, c.lane, c.elem));
    if (v == 0) continue;  // NaN compares unequal to 0: poison counts as lit and fails below
    const int ln = row_lit ? c.row : c.col, along = row_lit ? c.col : c.row;
    if (lit == 0) {
      first_line = ln;
      first_value = v;
    } else if (ln != first_line || v != first_value) {
      return false;
    }
    if (seen[along]) return false;
    seen[along] = true;
    ++lit;
  }
  if (lit != span || !is_integer(first_value) || first_value < 1 || first_value > op.k) return false;
  *line = first_line;
  *k = static_cast<int>(first_value) - 1;
  return true;
}

}  // namespace

uint16_t half_bits(int v) {
  require(v >= -2048 && v <= 2048, "half_bits: " + std::to_string(v) + " is outside [-2048, 2048], not exact in fp16");
  if (v == 0) return 0;
  const unsigned sign = v < 0 ? 0x8000u : 0u;
  const unsigned a = static_cast<unsigned>(v < 0 ? -v : v);
  int e = 0;  // floor(log2 a): the leading one becomes the implicit bit
  while ((a >> (e + 1)) != 0) ++e;
  // The 10 stored mantissa bits are a's bits below its leading one; for 2048 (e = 11) they are 0.
  const unsigned mant = (e <= 10 ? a << (10 - e) : a >> (e - 10)) & 0x3FFu;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | mant);
}

float half_value(uint16_t bits) {
  const float sign = (bits & 0x8000) ? -1.0f : 1.0f;
  const int exp = (bits >> 10) & 0x1F;
  const int mant = bits & 0x3FF;
  if (exp == 0) return sign * std::ldexp(static_cast<float>(mant), -24);  // zero and subnormals
  if (exp == 31) return mant ? std::nanf("") : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(1024 + mant), exp - 25);
}

bool decode_coordinate(double v, int rows, int cols, int* row, int* col) {
  if (!is_integer(v) || v < 0 || v >= static_cast<double>(rows) * cols) return false;
  const int i = static_cast<int>(v);
  *row = i / cols;
  *col = i % cols;
  return true;
}

std::vector<uint16_t> coordinate_matrix_f16(int rows, int cols) {
  require(rows > 0 && cols > 0 && rows * cols - 1 <= 2048,
          "coordinate_matrix_f16: " + std::to_string(rows) + "x" + std::to_string(cols) +
              " has indices above 2048, which fp16 cannot hold exactly");
  std::vector<uint16_t> m(static_cast<size_t>(rows) * cols);
  for (int i = 0; i < rows * cols; ++i) m[i] = half_bits(i);
  return m;
}

std::vector<float> coordinate_matrix_f32(int rows, int cols) {
  require(rows > 0 && cols > 0 && rows * cols <= (1 << 24), "coordinate_matrix_f32: bad extent");
  std::vector<float> m(static_cast<size_t>(rows) * cols);
  for (int i = 0; i < rows * cols; ++i) m[i] = static_cast<float>(i);
  return m;
}

FragmentLayout decode_wmma_trace(const MmaOp& op, Operand o, const std::vector<float>& values) {
  const int elems = fragment_elems(op, o);
  const size_t want = size_t(op.threads) * elems;
  require(values.size() == want, op.name + " " + operand_name(o) + ": expected " + std::to_string(want) +
                                     " slot values, got " + std::to_string(values.size()));
  FragmentLayout l = traced_layout(op, o);
  for (int lane = 0; lane < op.threads; ++lane)
    for (int elem = 0; elem < elems; ++elem) {
      int row = -1, col = -1;
      if (!decode_coordinate(values[lane * elems + elem], l.rows, l.cols, &row, &col)) row = col = -1;
      l.cells.push_back({lane, elem, row, col});
    }
  return l;
}

WgmmaTraceInputs plan_wgmma_trace(const MmaOp& op) {
  require(op.kind == OpKind::Wgmma, op.name + " is not a wgmma op");
  require(op.k >= 2 && op.m * op.n <= 2048, op.name + ": D's coordinates would not be exact in fp16 inputs");
  WgmmaTraceInputs in;
  in.a.assign(size_t(op.m) * op.k, half_bits(0));
  in.b.assign(size_t(op.k) * op.n, half_bits(0));
  for (int r = 0; r < op.m; ++r) {
    in.a[size_t(r) * op.k + 0] = half_bits(1);
    in.a[size_t(r) * op.k + 1] = half_bits(r);
  }
  for (int c = 0; c < op.n; ++c) {
    in.b[0 * size_t(op.n) + c] = half_bits(c);
    in.b[1 * size_t(op.n) + c] = half_bits(op.n);
  }
  return in;
}

MmaLayouts documented_mma_layouts(const MmaOp& op) {
  return {documented_layout(op, Operand::A), documented_layout(op, Operand::B), documented_layout(op, Operand::C)};
}

int mma_registers(const MmaOp& op, Operand o) {
  const int elems = fragment_elems(op, o);
  require(elems > 0, op.name + " " + operand_name(o) + " has no fragment elements");
  return register_of(op, o, elems - 1).reg + 1;
}

MmaTraceBatch plan_mma_trace(const MmaOp& op, const MmaLayouts& assumed) {
  check_layouts(op, assumed);
  // The D trace's value r * n + c needs r (< m) and n in the input type; both are <= 16 here.
  require(op.m <= 127 && op.n <= 127 && op.k <= 126, op.name + ": too large for the probe's s8-safe values");
  MmaTraceBatch bt;
  bt.op = op.name;
  bt.regs_a = mma_registers(op, Operand::A);
  bt.regs_b = mma_registers(op, Operand::B);
  bt.regs_c = mma_registers(op, Operand::C);
  bt.experiments = experiments_of(op);
  // Zero bits are 0 in every input and accumulator type: unplaced slots and all of C are 0.
  bt.a.assign(static_cast<size_t>(bt.experiments) * 32 * bt.regs_a, 0);
  bt.b.assign(static_cast<size_t>(bt.experiments) * 32 * bt.regs_b, 0);
  bt.c.assign(static_cast<size_t>(bt.experiments) * 32 * bt.regs_c, 0);
  const Regs ra{op, Operand::A, bt.regs_a}, rb{op, Operand::B, bt.regs_b};
  const int n = op.n;

  // D trace: D[r][c] = A[r][0] B[0][c] + A[r][1] B[1][c] = 1 * c + r * n.
  ra.place(bt.a, 0, assumed.a, [](int r, int k) { return k == 0 ? 1 : k == 1 ? r : 0; });
  rb.place(bt.b, 0, assumed.b, [n](int k, int c) { return k == 0 ? c : k == 1 ? n : 0; });

  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_a; ++elem) {
      const int e = a_experiment(op, lane, elem);
      ra.set(bt.a, e, lane, elem, encode_input(op, 1));  // D[r][c] = 1 * B[k][c] = k + 1 in row r only
      rb.place(bt.b, e, assumed.b, [](int k, int) { return k + 1; });
    }
  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_b; ++elem) {
      const int e = b_experiment(op, lane, elem);
      ra.place(bt.a, e, assumed.a, [](int, int k) { return k + 1; });
      rb.set(bt.b, e, lane, elem, encode_input(op, 1));  // D[r][c] = A[r][k] * 1 = k + 1 in column c only
    }
  return bt;
}

std::vector<FragmentLayout> decode_mma_trace(const MmaOp& op, const MmaLayouts& assumed,
                                             const std::vector<uint32_t>& d) {
  check_layouts(op, assumed);
  const Regs dregs{op, Operand::C, mma_registers(op, Operand::C)};
  const size_t want = static_cast<size_t>(experiments_of(op)) * 32 * dregs.regs;
  require(d.size() == want,
          op.name + ": expected " + std::to_string(want) + " D words, got " + std::to_string(d.size()));

  FragmentLayout a = traced_layout(op, Operand::A), b = traced_layout(op, Operand::B);
  FragmentLayout c = traced_layout(op, Operand::C);
  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_a; ++elem) {
      int row = -1, k = -1;
      if (!lit_line(op, assumed.c, d, a_experiment(op, lane, elem), true, &row, &k)) row = k = -1;
      a.cells.push_back({lane, elem, row, k});
    }
  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_b; ++elem) {
      int col = -1, k = -1;
      if (!lit_line(op, assumed.c, d, b_experiment(op, lane, elem), false, &col, &k)) col = k = -1;
      b.cells.push_back({lane, elem, k, col});
    }
  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_c; ++elem) {
      int row = -1, col = -1;
      if (!decode_coordinate(decode_acc(op, dregs.get(d, 0, lane, elem)), op.m, op.n, &row, &col)) row = col = -1;
      c.cells.push_back({lane, elem, row, col});
    }
  return {std::move(a), std::move(b), std::move(c)};
}

std::vector<uint32_t> simulate_mma_trace(const MmaOp& op, const MmaLayouts& hardware, const MmaTraceBatch& batch) {
  check_layouts(op, hardware);
  const Regs ra{op, Operand::A, mma_registers(op, Operand::A)}, rb{op, Operand::B, mma_registers(op, Operand::B)},
      rc{op, Operand::C, mma_registers(op, Operand::C)};
  const size_t per = static_cast<size_t>(batch.experiments) * 32;
  require(batch.op == op.name && batch.regs_a == ra.regs && batch.regs_b == rb.regs && batch.regs_c == rc.regs &&
              batch.a.size() == per * ra.regs && batch.b.size() == per * rb.regs && batch.c.size() == per * rc.regs,
          op.name + ": the batch was not planned for this op");
  const int m = op.m, n = op.n, kk = op.k;
  std::vector<uint32_t> d(per * rc.regs, kPoison);
  std::vector<double> A, B, C;
  for (int e = 0; e < batch.experiments; ++e) {
    // Gather each operand from the slots the hardware reads it from, then multiply.
    A.assign(static_cast<size_t>(m) * kk, 0);
    B.assign(static_cast<size_t>(kk) * n, 0);
    C.assign(static_cast<size_t>(m) * n, 0);
    for (const LayoutCell& x : hardware.a.cells)
      A[x.row * kk + x.col] = decode_input(op, ra.get(batch.a, e, x.lane, x.elem));
    for (const LayoutCell& x : hardware.b.cells)
      B[x.row * n + x.col] = decode_input(op, rb.get(batch.b, e, x.lane, x.elem));
    for (const LayoutCell& x : hardware.c.cells)
      C[x.row * n + x.col] = decode_acc(op, rc.get(batch.c, e, x.lane, x.elem));
    for (const LayoutCell& x : hardware.c.cells) {
      double sum = C[x.row * n + x.col];
      for (int k = 0; k < kk; ++k) sum += A[x.row * kk + k] * B[k * n + x.col];
      rc.set(d, e, x.lane, x.elem, encode_acc(op, sum));
    }
  }
  return d;
}

LdmatrixProbe plan_ldmatrix_trace(const MmaOp& op) {
  const std::vector<LdmatrixRow> rows = ldmatrix_rows(op);  // throws for an op that is not ldmatrix
  LdmatrixProbe p;
  p.op = op.name;
  p.rows = op.m, p.cols = op.k;
  p.regs = op.matrices;
  require(p.rows * p.cols <= 0x10000, op.name + ": tile too large for 16-bit indices");
  p.tile.resize(static_cast<size_t>(p.rows) * p.cols);
  for (size_t i = 0; i < p.tile.size(); ++i) p.tile[i] = static_cast<uint16_t>(i);
  // rows[] is in lane order; lane i >= rows.size() repeats lane i % rows.size().
  p.offsets.resize(32);
  for (int lane = 0; lane < 32; ++lane) {
    const LdmatrixRow& r = rows[lane % rows.size()];
    p.offsets[lane] = static_cast<uint32_t>((r.row * p.cols + r.col) * 2);  // b16: 2 bytes per element
  }
  return p;
}

FragmentLayout decode_ldmatrix_trace(const MmaOp& op, const std::vector<uint32_t>& regs) {
  require(op.kind == OpKind::Ldmatrix, op.name + " is not an ldmatrix op");
  const size_t want = 32 * static_cast<size_t>(op.matrices);
  require(regs.size() == want,
          op.name + ": expected " + std::to_string(want) + " register words, got " + std::to_string(regs.size()));
  FragmentLayout l = traced_layout(op, Operand::A);
  for (int lane = 0; lane < 32; ++lane)
    for (int elem = 0; elem < op.elems_a; ++elem) {
      const RegSlot s = register_of(op, Operand::A, elem);  // reg = matrix, part 0 = low half
      const uint32_t v = (regs[lane * op.matrices + s.reg] >> (16 * s.part)) & 0xFFFFu;
      int row = -1, col = -1;  // the all-ones poison (65535) is no index of a tile this small
      if (!decode_coordinate(v, l.rows, l.cols, &row, &col)) row = col = -1;
      l.cells.push_back({lane, elem, row, col});
    }
  return l;
}

std::vector<uint32_t> simulate_ldmatrix(int matrices, bool trans, const std::vector<uint16_t>& memory,
                                        const std::vector<uint32_t>& offsets) {
  require(matrices == 1 || matrices == 2 || matrices == 4,
          "simulate_ldmatrix: " + std::to_string(matrices) + " matrices; ldmatrix loads 1, 2 or 4");
  require(offsets.size() == 32, "simulate_ldmatrix: expected 32 lane offsets, got " + std::to_string(offsets.size()));
  // Element `pos` of matrix j's row r: 16 bytes from the address lane 8 j + r supplies.
  const auto at = [&](int j, int r, int pos) -> uint32_t {
    const uint32_t off = offsets[8 * j + r];
    require(off % 16 == 0, "simulate_ldmatrix: lane " + std::to_string(8 * j + r) + "'s row address " +
                               std::to_string(off) + " is not 16-byte aligned");
    const size_t word = off / 2 + pos;
    require(off / 2 + 8 <= memory.size(),
            "simulate_ldmatrix: lane " + std::to_string(8 * j + r) + "'s row reads past shared memory");
    return memory[word];
  };
  std::vector<uint32_t> regs(32 * static_cast<size_t>(matrices));
  for (int t = 0; t < 32; ++t)
    for (int j = 0; j < matrices; ++j) {
      const int g = t / 4, q = t % 4;
      const uint32_t lo = trans ? at(j, 2 * q, g) : at(j, g, 2 * q);
      const uint32_t hi = trans ? at(j, 2 * q + 1, g) : at(j, g, 2 * q + 1);
      regs[t * matrices + j] = lo | (hi << 16);
    }
  return regs;
}

std::string layout_difference(const FragmentLayout& x, const FragmentLayout& y) {
  std::string lx = x.source.empty() ? "first" : x.source, ly = y.source.empty() ? "second" : y.source;
  if (lx == ly) lx = "first " + lx, ly = "second " + ly;  // e.g. traced now vs traced in a capture
  if (x.op != y.op || x.operand != y.operand)
    return "different operands: " + lx + " " + x.op + " " + x.operand + ", " + ly + " " + y.op + " " + y.operand;
  if (x.rows != y.rows || x.cols != y.cols)
    return "extent: " + lx + " " + std::to_string(x.rows) + "x" + std::to_string(x.cols) + ", " + ly + " " +
           std::to_string(y.rows) + "x" + std::to_string(y.cols);
  const size_t common = std::min(x.cells.size(), y.cells.size());
  for (size_t i = 0; i < common; ++i) {
    const LayoutCell &p = x.cells[i], &q = y.cells[i];
    if (p == q) continue;
    if (p.lane == q.lane && p.elem == q.elem)
      return "lane " + std::to_string(p.lane) + " elem " + std::to_string(p.elem) + ": " + lx + " " + at(p.row, p.col) +
             ", " + ly + " " + at(q.row, q.col);
    return "cell " + std::to_string(i) + ": " + lx + " has lane " + std::to_string(p.lane) + " elem " +
           std::to_string(p.elem) + ", " + ly + " lane " + std::to_string(q.lane) + " elem " + std::to_string(q.elem);
  }
  if (x.cells.size() != y.cells.size())
    return lx + " has " + std::to_string(x.cells.size()) + " cells, " + ly + " " + std::to_string(y.cells.size());
  return "";
}

}  // namespace gs
