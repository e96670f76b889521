// Host half of the fragment-layout probes (kernels/layout_probe.cu): what the probe kernels are
// fed and how their output is decoded into "traced" layouts. Plain C++ so it is unit-tested, with a
// CPU model of mma.sync standing in for the GPU, where there is none.
//
// One encoding serves every probe: a value is an element's row-major index in its operand
// (row * cols + col), so the value a slot ends up holding names the element it holds.
// - wmma: load_matrix_sync reads a matrix of such values; each fragment slot's value is decoded.
// - ldmatrix: the same, from a shared-memory tile, with the row addresses the lanes supply.
// - mma.sync: nothing loads the registers but the programmer, so each operand is traced through the
//   product, placing the other operands by their documented layouts (experiments below). A wrong
//   formula in core/layout.cpp then shows up as a traced-vs-documented mismatch.
// A slot whose output cannot be decoded becomes the impossible cell (-1,-1): check_coverage and a
// comparison with the documented layout both report it instead of it being silently dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/capture.h"
#include "core/layout.h"

namespace gs {

// IEEE binary16 bits of an integer in [-2048, 2048], all exact in fp16; std::invalid_argument outside.
uint16_t half_bits(int v);
// Value of any binary16 bit pattern (subnormals, infinities and NaN included).
float half_value(uint16_t bits);

// (row, col) from a probe value; false unless v is an integer in [0, rows * cols).
bool decode_coordinate(double v, int rows, int cols, int* row, int* col);

// ---- wmma: fragments loaded from memory ---------------------------------------------------------
// The rows x cols row-major matrix a wmma probe loads: element (r, c) holds r * cols + c.
std::vector<uint16_t> coordinate_matrix_f16(int rows, int cols);  // fp16 bits; rows * cols <= 2049
std::vector<float> coordinate_matrix_f32(int rows, int cols);
// `values`: [lane][elem], op.threads * fragment_elems(op, o) slot values as floats, as the probe wrote them.
// Decodes the wgmma probe's accumulator too (a lane is then a thread of the warpgroup).
FragmentLayout decode_wmma_trace(const MmaOp& op, Operand o, const std::vector<float>& values);

// ---- wgmma: the accumulator, traced through the product ------------------------------------------
// A (m x k) and B (k x n), row-major fp16 bits, with A[r][0] = 1, A[r][1] = r, B[0][c] = c, B[1][c] = n and
// every other element 0: D = A * B holds D[r][c] = r * n + c, each accumulator slot its own coordinate,
// whatever layout the probe gives A and B in shared memory (it places them by element, not by register).
struct WgmmaTraceInputs {
  std::vector<uint16_t> a, b;
};
WgmmaTraceInputs plan_wgmma_trace(const MmaOp& op);

// ---- mma.sync: registers filled by the host -----------------------------------------------------
struct MmaLayouts { FragmentLayout a, b, c; };
MmaLayouts documented_mma_layouts(const MmaOp& op);
// 32-bit registers per lane holding the operand's fragment (register_of's packing).
int mma_registers(const MmaOp& op, Operand o);

// One launch of warp-wide experiments; all C registers are 0, so D = A * B.
//   0:                    D trace. A[r][0] = 1, A[r][1] = r, B[0][c] = c, B[1][c] = n, all else 0:
//                         D[r][c] = r * n + c, each D slot's value is its own coordinate.
//   1 + lane * ea + elem: A trace of slot (lane, elem) (ea = A elements per lane). That slot = 1,
//                         every other A slot 0, B[k][c] = k + 1: only row r(slot) of D lights up,
//                         every column with k(slot) + 1.
//   1 + 32 ea + lane * eb + elem: B trace, the transpose: A[r][k] = k + 1, one B slot = 1; only
//                         column c(slot) lights up, every row with k(slot) + 1.
// Integers this small are exact in every input type (s8 reaches k + 1 <= 33) and accumulator.
struct MmaTraceBatch {
  std::string op;
  int regs_a = 0, regs_b = 0, regs_c = 0;  // 32-bit registers per lane
  int experiments = 0;                     // one warp (one block) each
  std::vector<uint32_t> a, b, c;           // [experiment][lane][reg], f16x2 / s8x4 packed low first
};
// Places values by the `assumed` layouts (documented_mma_layouts in production).
MmaTraceBatch plan_mma_trace(const MmaOp& op, const MmaLayouts& assumed);
// `d`: [experiment][lane][regs_c] as the GPU wrote it. Reads the A and B experiments' D through
// assumed.c and returns the traced A, B and C layouts. std::invalid_argument if d has the wrong size.
std::vector<FragmentLayout> decode_mma_trace(const MmaOp& op, const MmaLayouts& assumed,
                                             const std::vector<uint32_t>& d);
// CPU model of mma.sync on a GPU whose fragments have the `hardware` layouts: the D registers it
// writes for `batch`. Slots outside hardware.c stay 0xFFFFFFFF, the poison the probe fills D with.
std::vector<uint32_t> simulate_mma_trace(const MmaOp& op, const MmaLayouts& hardware, const MmaTraceBatch& batch);

// ---- ldmatrix: fragments loaded from shared memory ---------------------------------------------
// Memory-anchored like wmma: the probe copies the op's tile (m x k b16, row-major) into shared memory
// with every element holding its own row-major index as a raw 16-bit integer (ldmatrix moves bits;
// no float conversion is involved, and indices below 256 are far from any limit). Each lane passes
// the address of the row that ldmatrix_rows says it supplies; lanes past 8 * matrices repeat lane
// (lane % (8 * matrices))'s address, which PTX requires below sm_80 and ignores from sm_80 on. The
// value each register half receives then names the tile element it came from, so a wrong element
// rule, a wrong supplier rule or a wrong tiling all show up as traced != documented.
struct LdmatrixProbe {
  std::string op;
  int rows = 0, cols = 0;         // the tile
  int regs = 0;                   // 32-bit destination registers per lane (= matrices)
  std::vector<uint16_t> tile;     // rows * cols, row-major, tile[i] = i
  std::vector<uint32_t> offsets;  // [lane]: byte offset into the tile of the row address the lane supplies
};
// std::invalid_argument for an op that is not ldmatrix.
LdmatrixProbe plan_ldmatrix_trace(const MmaOp& op);
// `regs`: [lane][reg], 32 * matrices words as the GPU wrote them. Element 2 reg + h is half h of
// register reg (low half first, register_of's packing). std::invalid_argument if regs has the wrong size.
FragmentLayout decode_ldmatrix_trace(const MmaOp& op, const std::vector<uint32_t>& regs);
// CPU model of ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.b16, in memory terms (independent of the
// tile coordinates core/layout.cpp uses): matrix j's row r is the 16 bytes at lane (8 j + r)'s byte
// offset into `memory` (b16 words); lane t's register j receives, low half first, the elements at
// positions 2 (t % 4) and 2 (t % 4) + 1 of matrix j's row t / 4, or with `trans` the elements at
// position t / 4 of its rows 2 (t % 4) and 2 (t % 4) + 1. Returns [lane][matrices] registers.
// std::invalid_argument for a bad matrix count, a wrong offset count, or a row that is not 16-byte
// aligned or reads past `memory`.
std::vector<uint32_t> simulate_ldmatrix(int matrices, bool trans, const std::vector<uint16_t>& memory,
                                        const std::vector<uint32_t>& offsets);

// Empty when the layouts have the same extent and the same cells; otherwise the first difference,
// labelled by each layout's source: "lane 3 elem 1: traced (1,2), documented (1,3)".
std::string layout_difference(const FragmentLayout& x, const FragmentLayout& y);

}  // namespace gs
