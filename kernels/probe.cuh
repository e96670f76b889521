// Probe policies (DESIGN.md "Probes"). Every kernel is a template over one of them and calls it at
// the points worth seeing; the timed and the traced kernel are the same body (STYLE.md #3).
//   NoProbe    every call is empty and inlined away: timed runs use it.
//   TraceProbe writes fixed-size records into a bounded device buffer; it only reads clocks and
//              writes its own buffer, so what the kernel computes is unchanged (tests compare bits).
//   StampProbe TraceProbe with smem() and gmem() compiled out: block records and stage stamps only. The
//              address probes' recording code, inlined at every load site of an unrolled loop, slows every
//              block, recording or not (mma_f16/06 19x at 4096^3 on an H200; with StampProbe 1.13x), so the
//              times the views show come from a launch with this probe and the addresses from a TraceProbe one.
//
// Calls a kernel makes, all from every thread of the block unless noted:
//   block_begin(tile_m, tile_n)  first thing: which output tile this block computes (the kernel knows
//                                its own swizzle), blockIdx, %smid and %globaltimer
//   block_end()                  last thing; also closes the open stage
//   stage(id)                    a new stage starts (and the previous one ends) in this warp; call at
//                                warp-uniform points, lane 0 stamps clock64 for sampled warps
//   mark(m)                      this warp has just passed a __syncthreads or a cp.async wait: lane 0 of sampled
//                                warps stamps clock64 (an instant in the timeline, beside the stages)
//   iteration(kt)                the k-iteration that later smem() records belong to
//   epilogue()                   the k-loop is over: later smem() records belong to the epilogue (C staged
//                                through shared memory), recorded for the warp's first epilogue only (a
//                                persistent kernel runs one per tile) and as iteration -1 in a capture
//   smem(site, ptr, bytes, kind) each active lane's shared-memory address for one access
//   gmem(site, ptr, bytes, kind) each active lane's global-memory address for one load or store
//                                (cp.async: its global source, as a load)
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

// Every probe call in a kernel is written GS_PROBE(probe.xxx(...)). The NoProbe SASS check compiles
// the registry a second time with GS_STRIP_PROBES, where the calls are gone from the source, and
// compares the NoProbe kernels of both objects instruction for instruction. So a probe call's
// arguments must have no side effects: the stripped build never evaluates them.
#ifdef GS_STRIP_PROBES
#define GS_PROBE(...) ((void)0)
#else
#define GS_PROBE(...) __VA_ARGS__
#endif

namespace gs {

enum class SmemKind : uint8_t { kLoad, kStore, kLdmatrix, kCpAsync };
// Instants a kernel marks (probe.mark): the same for every rung, so the probe names them, not the registry.
// kTile: a persistent kernel's warp starting its next tile (probe.tile() marks it).
enum class Mark : uint16_t { kBarrier, kCpAsyncWait, kTile };
inline constexpr const char* kMarkNames[] = {"__syncthreads", "cp.async wait", "next tile"};
// A StageRec whose stage id has this bit is a mark: id & ~kMarkBit indexes kMarkNames, start == end.
inline constexpr uint16_t kMarkBit = 0x8000;
// Global access sites are the same for every rung: the probe names them, not the registry.
enum GmemSite : int { kGmemA, kGmemB, kGmemC };
inline constexpr const char* kGmemSiteNames[] = {"A", "B", "C"};

// A global access: an ordinary load (LDG), a store (STG), or the global side of a cp.async (LDGSTS,
// which Nsight Compute counts apart from LDG).
enum class GmemKind : uint8_t { kLoad, kStore, kCpAsync };

// The generic pointer of a 32-bit shared-memory address, for kernels that address shared memory as integers:
// probe.smem() takes a pointer, and so does a plain C++ load or store.
__device__ __forceinline__ void* smem_generic(uint32_t addr) { return __cvta_shared_to_generic(addr); }

struct NoProbe {
  __device__ __forceinline__ void block_begin(int, int) {}
  __device__ __forceinline__ void tile(int, int, int) {}
  __device__ __forceinline__ void block_end() {}
  __device__ __forceinline__ void stage(int) {}
  __device__ __forceinline__ void mark(Mark) {}
  __device__ __forceinline__ void iteration(int) {}
  __device__ __forceinline__ void epilogue() {}
  __device__ __forceinline__ void smem(int, const void*, int, SmemKind) {}
  __device__ __forceinline__ void gmem(int, const void*, int, GmemKind) {}
};

namespace trace {

// Capacities are fixed so the buffer is one allocation the host sizes without knowing the kernel.
// Anything past them is dropped and counted, never written out of bounds.
inline constexpr uint32_t kMaxBlocks = 1u << 18;  // block records, indexed by launch index
inline constexpr uint32_t kMaxStages = 1u << 18;  // stage and mark records, appended
// A warp reserves stage slots this many at a time: one atomic round trip to L2 (hundreds of cycles, which the
// warp waits for) per 16 records instead of per record. The host fills the slots with 0xFF bytes before a
// launch, so a reserved slot never written reads stage 0xFFFF and is skipped.
inline constexpr uint32_t kStageChunk = 16;
inline constexpr uint16_t kUnusedStage = 0xFFFF;
inline constexpr uint32_t kMaxSmem = 1u << 13;    // warp shared-memory records, appended
inline constexpr uint32_t kMaxGmem = 1u << 12;    // warp global-memory records, appended
// Per warp of the sampled block: loads of A and B recorded in the first k-iterations, at most this many (a
// naive kernel loads inside its k-loop, every element), and its first accesses of C, wherever they happen.
inline constexpr int kGmemLoadsPerWarp = 48;
inline constexpr int kGmemStoresPerWarp = 16;
// Per warp of the sampled block: shared-memory accesses of its first epilogue (wmma/07's first k-group runs
// 144: 64 loads and 64 stores of the reduction, then 16 loads of the staged tile).
inline constexpr int kSmemEpiloguePerWarp = 160;
// SmemRec::iteration of an epilogue access (a capture says -1).
inline constexpr uint16_t kEpilogueIteration = 0xFFFF;

// One per block at index blockIdx.x + blockIdx.y * gridDim.x. Every warp's lane 0 folds its own
// begin/end time in with atomicMax, so the record spans the first warp's start to the last warp's
// end without a barrier (a barrier in a probe could deadlock a kernel whose warps exit early).
// start is stored bitwise inverted so that a zeroed record means "never began" and max finds the min.
struct BlockRec {
  unsigned long long start_inv;  // ~min %globaltimer over the block's warps
  unsigned long long end;        // max %globaltimer
  uint32_t bx, by;
  int32_t tile_m, tile_n;
  uint32_t smid;
  uint32_t written;  // 1 once warp 0 filled in the fields above
};

struct StageRec {
  uint32_t block;  // launch index
  uint16_t warp;   // warp within the block
  uint16_t stage;  // the kernel's stage id; the registry names it
  unsigned long long start, end;  // clock64 of the block's SM
};

// One warp executing one shared-memory access.
struct SmemRec {
  uint8_t site;  // the kernel's site id; the registry names it
  uint8_t kind;  // SmemKind
  uint8_t width; // bytes per lane
  uint8_t pad;
  uint16_t warp, iteration;
  uint32_t mask;          // lanes that executed the access
  uint32_t addr[32];      // shared state-space address per lane; bank = addr / 4 % 32
};

// One warp executing one global-memory access.
struct GmemRec {
  uint8_t site;   // the kernel's site id; the registry names it
  uint8_t kind;   // GmemKind
  uint8_t width;  // bytes per lane
  uint8_t pad;
  uint16_t warp, iteration;
  uint32_t mask;  // lanes that executed the access
  uint32_t pad2;
  unsigned long long addr[32];  // generic address per lane
};

struct Counters {
  unsigned int stages;          // stage slots reserved (kStageChunk at a time); unused ones keep stage 0xFFFF
  unsigned int smem;            // likewise for kMaxSmem
  unsigned int blocks_dropped;  // blocks with launch index >= kMaxBlocks
  unsigned int gmem;            // likewise for kMaxGmem
  unsigned int stages_dropped;  // stage and mark records that found no slot below kMaxStages
};

// Lives in device memory only (about 19 MB): the host uses its layout through offsetof, never
// an instance. Before each traced launch the counters and block records are zeroed.
struct TraceBuffer {
  Counters count;
  BlockRec blocks[kMaxBlocks];
  StageRec stages[kMaxStages];
  SmemRec smem[kMaxSmem];
  GmemRec gmem[kMaxGmem];
};

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ uint32_t smid() {
  uint32_t s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// The recording half of TraceProbe's smem() and gmem(), for the lanes in `mask` executing one access together: the
// leader reserves the next of the `max` records at `recs` (counted in *count), every lane writes its address and the
// leader the access's fields. Out of line on purpose: a rung's unrolled loops reach smem() and gmem() at hundreds of
// program points, and with this inlined at each one the TraceProbe kernels were 70% of the wmma ladder's PTX and
// most of its ptxas time (that file alone took 985 s of a 2-core build's 18 minutes; 307 s with the call). Only the
// sampled block's first k-iterations call it, and StampProbe and NoProbe never do.
template <class Rec, class Addr, class Kind>
__device__ __noinline__ void record_access(unsigned* count, Rec* recs, uint32_t max, unsigned mask, int leader,
                                           int lane, Addr addr, int site, Kind kind, int bytes, int warp,
                                           uint16_t iteration) {
  unsigned slot = 0;
  if (lane == leader) slot = atomicAdd(count, 1u);
  slot = __shfl_sync(mask, slot, leader);
  if (slot >= max) return;
  Rec& r = recs[slot];
  r.addr[lane] = addr;
  if (lane == leader) {
    r.site = static_cast<uint8_t>(site);
    r.kind = static_cast<uint8_t>(kind);
    r.width = static_cast<uint8_t>(bytes);
    r.warp = static_cast<uint16_t>(warp);
    r.iteration = iteration;
    r.mask = mask;
  }
}

}  // namespace trace

template <bool kAddresses>
struct TraceProbeT {
  // Set by the host for one launch.
  trace::TraceBuffer* buf = nullptr;
  uint32_t stage_block_stride = 1;  // blocks whose launch index is a multiple of this stamp stages
  uint32_t smem_block = 0;          // the one block whose shared-memory addresses are recorded...
  uint32_t smem_iterations = 2;     // ...during its first k-iterations
  // Added to every block index of this launch (a 1-D grid): a rung of two launches (mma_f16/13: rung 12's kernel,
  // then a stream-K kernel) numbers one launch's blocks after the other's, so that its trace tells their CTAs
  // apart (block b of each would otherwise share stage records stamped on two SMs' clocks). Set with
  // offset_blocks().
  uint32_t block_offset = 0;

  __device__ __forceinline__ void block_begin(int tile_m, int tile_n) {
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    // hardware forms warps from the linear thread index; a block has at most 32 warps
    const unsigned long long block =
        blockIdx.x + static_cast<unsigned long long>(blockIdx.y) * gridDim.x + block_offset;
    block_ = static_cast<uint32_t>(block);
    ids_ = (tid % 32) | (tid / 32) << 5 | (block % stage_block_stride == 0 ? kStageSampled : 0u) |
           (block == smem_block ? kSmemSampled : 0u);
    iter_ = 0;
    gmem_loads_ = gmem_stores_ = 0;
    epilogues_ = smem_epilogue_ = 0;
    tiles_ = 0;
    record_ = -1;
    slot_ = 0;
    if (lane() != 0 || tile_m < 0) return;  // tile_m < 0: a persistent kernel, whose tiles call tile()
    open_record(block, tile_m, tile_n, warp() == 0);
  }

  // Persistent kernels: each warp calls this as it starts on a tile, `launch` being the tile's index in the
  // kernel's tile order. The tile gets the record a launch of one CTA per tile would give its block (at index
  // `launch`, tile and SM, bx = the CTA), spanning the first warp's start on it to the last warp's move to its
  // next tile or its end: the producer's first load to the consumers' last store. Shared and global accesses are
  // recorded during a warp's first tile only (as a block records one epilogue), so the kernel numbers each tile's
  // k-iterations from 0 again.
  __device__ __forceinline__ void tile(int launch, int tile_m, int tile_n) {
    ++tiles_;  // every lane: smem() and gmem() ask it
    if (lane() != 0) return;
    close_record();
    open_record(static_cast<unsigned long long>(launch), tile_m, tile_n, true);
    mark(Mark::kTile);
  }

  __device__ __forceinline__ void block_end() {
    if (lane() != 0) return;
    close_stage(clock64());
    close_record();
  }

  __device__ __forceinline__ void stage(int id) {
    if (lane() != 0 || !(ids_ & kStageSampled)) return;
    const long long now = clock64();
    close_stage(now);
    ids_ = (ids_ & 0xFFFFu) | static_cast<uint32_t>(id + 1) << 16;
    stage_t0_ = now;
  }

  __device__ __forceinline__ void mark(Mark m) {
    if (lane() != 0 || !(ids_ & kStageSampled)) return;
    const long long now = clock64();
    emit_stage(static_cast<uint16_t>(kMarkBit | static_cast<uint16_t>(m)), now, now);
  }

  __device__ __forceinline__ void iteration(int kt) { iter_ = kt; }

  __device__ __forceinline__ void epilogue() {
    iter_ = kEpilogue;
    ++epilogues_;
  }

  // ptr must point into shared memory.
  __device__ __forceinline__ void smem(int site, const void* ptr, int bytes, SmemKind kind) {
    if (!kAddresses || !(ids_ & kSmemSampled) || tiles_ > 1) return;
    const bool epi = iter_ == kEpilogue;
    if (epi ? epilogues_ != 1 : iter_ < 0 || iter_ >= static_cast<int>(smem_iterations)) return;
    const unsigned mask = __activemask();  // the lanes executing this access together
    const int leader = __ffs(mask) - 1;
    if (epi) {
      // The leader's count decides for the warp: lanes that skipped an access (a clipped edge) count fewer.
      smem_epilogue_ = __shfl_sync(mask, smem_epilogue_, leader);
      if (smem_epilogue_ >= trace::kSmemEpiloguePerWarp) return;
      ++smem_epilogue_;
    }
    trace::record_access(&buf->count.smem, buf->smem, trace::kMaxSmem, mask, leader, lane(),
                         static_cast<uint32_t>(__cvta_generic_to_shared(ptr)), site, kind, bytes, warp(),
                         epi ? trace::kEpilogueIteration : static_cast<uint16_t>(iter_));
  }

  // ptr must point into global memory. Called at one program point by the lanes that execute the access,
  // like smem(); bytes is what each lane moves (0: this lane moves nothing).
  __device__ __forceinline__ void gmem(int site, const void* ptr, int bytes, GmemKind kind) {
    if (!kAddresses || !(ids_ & kSmemSampled) || tiles_ > 1) return;
    // C is touched in the epilogue (stores, and reads when beta != 0), after the k-loop: kept apart from the
    // loads of the first k-iterations and recorded as iteration 0xFFFF, "epilogue".
    const bool epilogue = kind == GmemKind::kStore || site == kGmemC;
    if (epilogue) {
      if (gmem_stores_ >= trace::kGmemStoresPerWarp) return;
      ++gmem_stores_;
    } else {
      if (iter_ < 0 || iter_ >= static_cast<int>(smem_iterations) || gmem_loads_ >= trace::kGmemLoadsPerWarp) return;
      ++gmem_loads_;
    }
    // A lane that moves no bytes (a cp.async with source size 0 past the matrix edge) takes part in the
    // instruction but touches no memory: it is left out of the record.
    const unsigned mask = __ballot_sync(__activemask(), bytes > 0);
    if (bytes <= 0) return;
    const int leader = __ffs(mask) - 1;
    trace::record_access(&buf->count.gmem, buf->gmem, trace::kMaxGmem, mask, leader, lane(),
                         reinterpret_cast<unsigned long long>(ptr), site, kind, bytes, warp(),
                         epilogue || iter_ < 0 ? trace::kEpilogueIteration : static_cast<uint16_t>(iter_));
  }

 private:
  // Per-thread state from block_begin on: the kernel's by-value parameter is each thread's own copy. A StampProbe
  // launch keeps what its stamps need live from block_begin to block_end, through the k-loop where its calls
  // compile to nothing, and in a rung held to few registers each one it holds is a load fewer in flight
  // (sgemm/02 at 4096^3: 2.0x its timed run with about 12 registers of state, 1.5x with these 6; bench/NOTES.md):
  // so the lane, the warp, both sampling flags and the open stage share one word, and the stage slots one counter.
  static constexpr uint32_t kStageSampled = 1u << 10;  // blocks whose launch index is a multiple of the stride
  static constexpr uint32_t kSmemSampled = 1u << 11;   // the block whose addresses are recorded
  uint32_t ids_ = 0;    // lane in bits 0-4, warp 5-9, the two flags, open stage + 1 in bits 16-31 (0: none)
  uint32_t block_ = 0;  // launch index (StageRec::block is 32 bits)
  long long stage_t0_ = 0;
  __device__ __forceinline__ int lane() const { return static_cast<int>(ids_ & 31u); }
  __device__ __forceinline__ int warp() const { return static_cast<int>(ids_ >> 5 & 31u); }
  __device__ __forceinline__ int open_stage() const { return static_cast<int>(ids_ >> 16) - 1; }
  // TraceProbe's address bookkeeping (never read in StampProbe, so compiled out there).
  static constexpr int kEpilogue = -1;  // iter_ after epilogue()
  int iter_ = 0;
  int gmem_loads_ = 0, gmem_stores_ = 0;  // this warp's global records so far (every lane counts alike)
  int epilogues_ = 0, smem_epilogue_ = 0;  // epilogue() calls, and shared records of the first epilogue
  int tiles_ = 0;                          // tile() calls: 0 in a kernel of one tile per block

  int record_ = -1;  // the block record this warp has open (block_begin or tile()), -1 none (< kMaxBlocks)

  // Lane 0 only: opens block record `index` (folding this warp's start in) and fills in its fields; every
  // warp that opens a record writes the same values, so `fill` may be true for several. A record past
  // kMaxBlocks is counted as dropped once (by the filling warp).
  __device__ __forceinline__ void open_record(unsigned long long index, int tile_m, int tile_n, bool fill) {
    if (index >= trace::kMaxBlocks) {
      if (fill && warp() == 0) atomicAdd(&buf->count.blocks_dropped, 1u);
      return;
    }
    record_ = static_cast<int>(index);
    trace::BlockRec& r = buf->blocks[index];
    atomicMax(&r.start_inv, ~trace::globaltimer());
    if (fill) {
      r.bx = blockIdx.x + block_offset;
      r.by = blockIdx.y;
      r.tile_m = tile_m;
      r.tile_n = tile_n;
      r.smid = trace::smid();
      r.written = 1;
    }
  }

  // Lane 0 only: folds this warp's end into its open block record.
  __device__ __forceinline__ void close_record() {
    if (record_ < 0) return;
    atomicMax(&buf->blocks[record_].end, trace::globaltimer());
    record_ = -1;
  }

  // This warp's next reserved stage slot. Reservations come kStageChunk at a time from a counter that starts at 0,
  // so a multiple of kStageChunk (0 included) means the last one is used up.
  uint32_t slot_ = 0;

  // Lane 0 only: appends one stage or mark record in the warp's next reserved slot.
  __device__ __forceinline__ void emit_stage(uint16_t stage, long long start, long long end) {
    if (slot_ % trace::kStageChunk == 0) slot_ = atomicAdd(&buf->count.stages, trace::kStageChunk);
    const uint32_t slot = slot_++;
    if (slot >= trace::kMaxStages) {
      atomicAdd(&buf->count.stages_dropped, 1u);
      return;
    }
    trace::StageRec& r = buf->stages[slot];
    r.block = block_;
    r.warp = static_cast<uint16_t>(warp());
    r.stage = stage;
    r.start = static_cast<unsigned long long>(start);
    r.end = static_cast<unsigned long long>(end);
  }

  // Lane 0 only: emits the open stage as [stage_t0_, now).
  __device__ __forceinline__ void close_stage(long long now) {
    if (open_stage() < 0) return;  // only sampled warps open stages
    emit_stage(static_cast<uint16_t>(open_stage()), stage_t0_, now);
    ids_ &= 0xFFFFu;
  }
};

using TraceProbe = TraceProbeT<true>;   // stamps and addresses

// Numbers a launch of `grid` blocks after `offset` others in the trace (TraceProbeT::block_offset). With `stamps`
// false none of them stamps stages or records addresses (the sampling stride then exceeds their numbers), so the
// launch runs as its timed twin does while its blocks still get their records. Nothing to do for a probe that
// records nothing.
inline void offset_blocks(NoProbe*, uint32_t, uint32_t, bool) {}
template <bool kAddresses>
inline void offset_blocks(TraceProbeT<kAddresses>* probe, uint32_t offset, uint32_t grid, bool stamps) {
  probe->block_offset = offset;
  if (stamps || offset == 0) return;
  probe->stage_block_stride = offset + grid;  // blocks offset .. offset + grid - 1: none a multiple
  probe->smem_block = offset + grid;
}
using StampProbe = TraceProbeT<false>;  // stamps only

}  // namespace gs
