// Internal to kernels/: the probe kernels that discover fragment layouts on the GPU
// (GpuSession::trace_layouts is the public way in). No CUDA types, so tests include it directly.
#pragma once

#include <string>
#include <vector>

#include "core/capture.h"

namespace gs {

// Traces, on the current CUDA device, every op in mma_ops() that has a probe kernel, in that
// order, operands A, B, C each (ldmatrix ops: A only): the wmma ops by loading coordinate-valued
// matrices with load_matrix_sync, the ldmatrix ops by loading a coordinate-valued shared-memory tile
// through the documented row addresses, the documented mma.sync ops functionally through the
// product (core/layout_trace.h).
// Layouts have source "traced" and cells sorted by lane, then elem; a slot whose output could not be
// decoded is the cell (-1,-1). On any CUDA failure (or a device below compute capability 8.0)
// returns nothing, with `error` (if not null) set to one line naming the step that failed.
std::vector<FragmentLayout> trace_fragment_layouts(std::string* error);

// The bank probe's rule for a wmma 16x16 accumulator staged in shared memory (wmma_common::acc_pair: four
// pairs of elements per lane) against store_matrix_sync and load_matrix_sync on the current device, float
// and half: "" when every element is where the rule says, else one line naming the first lane that differs.
std::string check_wmma_acc_pairs();

}  // namespace gs
