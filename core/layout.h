// Fragment-to-lane layouts of tensor-core operations.
// "documented" layouts come from the PTX ISA's formulas (section "Matrix Fragments for mma.m16n8k*",
// groupID = lane >> 2, threadID_in_group = lane % 4). wmma's layout is unspecified by PTX: it exists
// here only as "traced" on a GPU (kernels/layout_probe.cu) and stored in a capture.
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

struct MmaOp {
  std::string name;        // "mma.m16n8k16.f16"
  int m = 0, n = 0, k = 0;
  std::string a_type;      // element type of A and B: "f16", "tf32", "s8"
  std::string c_type;      // accumulator element type: "f32", "s32"
  bool documented = true;  // false for wmma: only a traced layout exists
  int elems_a = 0, elems_b = 0, elems_c = 0;  // fragment elements per lane
  int elem_bytes_a = 0, elem_bytes_c = 0;     // bytes per element (registers are 32-bit)
};

// Every op the tool knows, in the order the view lists them.
const std::vector<MmaOp>& mma_ops();
const MmaOp* find_mma_op(std::string_view name);
std::string mma_op_names(const char* sep = ", ");

struct Extent { int rows = 0, cols = 0; };
// A: m x k, B: k x n, C: m x n.
Extent operand_extent(const MmaOp& op, Operand o);
int fragment_elems(const MmaOp& op, Operand o);

// The PTX ISA layout of one operand. Throws std::invalid_argument for an op with no documented layout.
FragmentLayout documented_layout(const MmaOp& op, Operand o);

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

// Register (32-bit) index and position within it of fragment element `elem`.
struct RegSlot { int reg = 0; int part = 0; int parts = 1; };
RegSlot register_of(const MmaOp& op, Operand o, int elem);

}  // namespace gs
