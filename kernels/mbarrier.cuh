// The mbarrier, Hopper's (and Ampere's) shared-memory barrier object, as the hopper ladder and the mma rungs
// with per-stage barriers use it: a 64-bit word in shared memory with an expected arrival count (and, for TMA,
// a transaction byte count). A phase completes when every expected arrival has come, and the next phase
// begins; waiters name the phase they wait for by its parity (0, 1, 0, ...). PTX ISA, "Parallel
// Synchronization and Communication Instructions: mbarrier". try_wait needs sm_90.
#pragma once

#include <cstdint>

namespace gs {

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// One arrival, with release semantics at CTA scope: this thread's earlier shared-memory reads and writes
// happen before the phase completes for any waiter.
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// One arrival that the barrier counts once every cp.async this thread issued before it has landed (.noinc:
// the arrival is one of the count given to mbar_init, not an extra one). A waiter that sees the phase complete
// sees those copies' bytes: the per-stage replacement for cp.async.wait_group plus __syncthreads.
__device__ __forceinline__ void cp_async_mbar_arrive(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

// Spins until the phase of parity `parity` has completed. The phase before the first is taken as complete,
// so waiting for parity 1 on a fresh barrier returns at once (how producers start on empty stages).
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

}  // namespace gs
