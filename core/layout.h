// Fragment-to-lane layouts of tensor-core operations.
// "documented" layouts come from the PTX ISA's formulas (section "Matrix Fragments for mma.m16n8k*",
// groupID = lane >> 2, threadID_in_group = lane % 4). wmma's layout is unspecified by PTX: it exists
// here only as "traced" on a GPU (kernels/layout_probe.cu) and stored in a capture.
// ldmatrix (section "Warp-level matrix load instruction: ldmatrix") is listed beside them: it is the
// load that fills mma fragments from shared memory, and its layout is the other half of the story:
// which lane names each row's address, and which lane receives each element.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/capture.h"

namespace gs {

enum class Operand { A, B, C };

std::optional<Operand> parse_operand(std::string_view s);  // "A", "B", "C" (also "D" for C)
const char* operand_name(Operand o);                        // "A", "B", "C"

// Mma: a product with operands A, B and C (mma.sync and wmma). Ldmatrix: a warp-wide load of 8x8
// b16 matrices from shared memory; its only operand is the loaded tile, called "A" here. Wgmma: Hopper's
// warpgroup-wide product (128 threads); the rungs give it A and B in shared memory through descriptors, so
// only its accumulator C has a register layout, and a "lane" of its layouts is a thread of the warpgroup.
enum class OpKind { Mma, Ldmatrix, Wgmma };

struct MmaOp {
  std::string name;        // "mma.m16n8k16.f16", "ldmatrix.x4.trans"
  int m = 0, n = 0, k = 0; // ldmatrix: the tile is m x k (n = 0), see ldmatrix_rows
  std::string a_type;      // element type of A and B: "f16", "tf32", "s8"; ldmatrix "b16"
  std::string c_type;      // accumulator element type: "f32", "s32"; ldmatrix none
  bool documented = true;  // false for wmma: only a traced layout exists
  int elems_a = 0, elems_b = 0, elems_c = 0;  // fragment elements per lane
  int elem_bytes_a = 0, elem_bytes_c = 0;     // bytes per element (registers are 32-bit)
  // Appended last so that brace-initialised ops (tests build some by hand) stay valid.
  OpKind kind = OpKind::Mma;
  int matrices = 0;    // ldmatrix: 8x8 matrices loaded (.x1, .x2, .x4), one 32-bit register each
  bool trans = false;  // ldmatrix .trans: each lane receives a column pair instead of a row pair
  int threads = 32;    // threads that hold the fragments: a warp, or a warpgroup of 128 for wgmma
};

// Every op the tool knows, in the order the view lists them: mma, then wmma, then ldmatrix, then wgmma.
const std::vector<MmaOp>& mma_ops();
const MmaOp* find_mma_op(std::string_view name);
std::string mma_op_names(const char* sep = ", ");

// The operands an op has a layout for: A, B, C for a product; A alone for ldmatrix; C alone for wgmma.
bool has_operand(const MmaOp& op, Operand o);
std::vector<Operand> op_operands(const MmaOp& op);

struct Extent { int rows = 0, cols = 0; };
// A: m x k, B: k x n, C: m x n. An operand the op does not have: 0 x 0.
Extent operand_extent(const MmaOp& op, Operand o);
int fragment_elems(const MmaOp& op, Operand o);  // 0 for an operand the op does not have

// The PTX ISA layout of one operand. Throws std::invalid_argument for an op with no documented layout
// or for an operand the op does not have (ldmatrix B or C, wgmma A or B).
FragmentLayout documented_layout(const MmaOp& op, Operand o);

// ---- ldmatrix: who supplies each row address --------------------------------------------------
// One 8-element (16-byte) row of one 8x8 matrix, placed in the op's tile: matrix index, the tile row
// it lies in, its first tile column, and the lane whose address operand names its start.
// PTX ISA, "Warp-level matrix load instruction: ldmatrix": threads 0-7 give the rows of the first
// matrix, 8-15 of the second, 16-23 and 24-31 of the third and fourth (.x1 uses only 0-7, .x2 0-15):
// lane i supplies row i % 8 of matrix i / 8.
struct LdmatrixRow { int matrix = 0, row = 0, col = 0, lane = 0; };
// Every row of every matrix of an ldmatrix op, in supplying-lane order (8 * matrices entries).
// std::invalid_argument for an op that is not ldmatrix.
std::vector<LdmatrixRow> ldmatrix_rows(const MmaOp& op);
// Tile position of matrix j's (row 0, col 0). The tiling is the one mma.m16n8k16 consumes (see layout.cpp).
struct TilePos { int row = 0, col = 0; };
TilePos ldmatrix_matrix_origin(const MmaOp& op, int matrix);

// "lane,elem,row,col" header and one line per cell, sorted by lane then elem.
std::string layout_csv(const FragmentLayout& l);

// How a layout covers its operand: every (lane, elem) slot names an element inside the operand,
// no slot appears twice, and every element is held by the same number of slots (1 for a bijection).
struct Coverage {
  bool ok = false;
  int multiplicity = 0;  // slots per element when ok
  std::string problem;   // first problem found when !ok
};
Coverage check_coverage(const FragmentLayout& l, int lanes_expected = 32);

// Register (32-bit) index and position within it of fragment element `elem`. ldmatrix: register j
// holds matrix j, elements 2j (low half) and 2j + 1 (high half).
struct RegSlot { int reg = 0; int part = 0; int parts = 1; };
RegSlot register_of(const MmaOp& op, Operand o, int elem);

}  // namespace gs
