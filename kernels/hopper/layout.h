// The arithmetic of the hopper rungs that needs no GPU: shared-memory matrix descriptors, the swizzle that
// TMA writes and wgmma reads, the wgmma accumulator layout and the persistent rungs' tile order. Plain C++
// (host and device), so tests/hopper_layout_test.cpp checks every formula cell by cell on a machine without a
// GPU, and the kernels use the very same functions.
//
// Sources (PTX ISA 9.0, "Asynchronous Warpgroup Level Matrix Shared Memory Layout" and "Matrix Descriptor
// Format"; CUDA driver API, CUtensorMapSwizzle):
//   descriptor bits 0-13   start address >> 4          bits 16-29  leading-dimension byte offset (LBO) >> 4
//              bits 32-45  stride-dimension byte offset (SBO) >> 4
//              bits 49-51  base offset (0 when the swizzle pattern starts on its own boundary: 1024 B for 128B)
//              bits 62-63  swizzle: 0 none, 1 128-byte, 2 64-byte, 3 32-byte
//   canonical layouts, in elements, T = 16 bytes / element size (8 halves):
//     K-major, 128B swizzle:  ((8,m),(T,2k)) : ((8T,SBO),(1,T))     rows of 128 B, 8-row groups SBO apart
//     MN-major, 128B swizzle: ((T,8,m),(8,k)) : ((1,T,LBO),(8T,SBO)) 64 MN-contiguous elements per 128 B row,
//                             further 64-element MN chunks LBO apart, 8-row K groups SBO apart
//   the 128-byte swizzle (cute's Swizzle<3,4,3>): byte offset bits 4-6 (16-byte chunk within a 128-byte row)
//   XOR bits 7-9 (row within an 8-row, 1024-byte atom). TMA's CU_TENSOR_MAP_SWIZZLE_128B writes exactly this
//   pattern, relative to a 1024-byte aligned box, so what TMA stores is what the descriptor reads.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define GS_HOPPER_HD __host__ __device__
#else
#define GS_HOPPER_HD
#endif

namespace gs::hopper {

// The descriptor's swizzle field (bits 62-63), named by the bytes one swizzled row spans.
enum class Swizzle : uint32_t { kNone = 0, k128B = 1, k64B = 2, k32B = 3 };

// Bytes a swizzled row spans: the 16-byte chunks of one row are permuted within this many bytes.
GS_HOPPER_HD constexpr uint32_t swizzle_span(Swizzle s) {
  return s == Swizzle::k128B ? 128u : s == Swizzle::k64B ? 64u : s == Swizzle::k32B ? 32u : 16u;
}

// Byte offset, within a tile whose start is aligned to the swizzle atom (8 rows of swizzle_span bytes), at
// which the bytes of logical offset `off` land: the 16-byte chunk index (bits 4 and up, as many bits as the
// span has chunks) XOR the row index within the atom (bits 7 and up).  128B: bits 4-6 ^= 7-9; 64B: bits 4-5
// ^= 7-8; 32B: bit 4 ^= bit 7; none: unchanged.
GS_HOPPER_HD constexpr uint32_t swizzle_offset(uint32_t off, Swizzle s) {
  const uint32_t chunks = swizzle_span(s) / 16;  // 8, 4, 2 or 1 chunks per row
  return off ^ (((off >> 7) & (chunks - 1)) << 4);
}

// Field encoding of an address or byte offset: bits 4-17 of it (PTX "matrix-descriptor-encode").
GS_HOPPER_HD constexpr uint64_t desc_field(uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }

// A wgmma shared-memory matrix descriptor. start: the operand's shared-state-space byte address (16-byte
// aligned); lbo, sbo: the leading and stride byte offsets of the canonical layout above; base offset 0, so
// every swizzle atom the operand touches must start on a 1024-byte boundary (the rungs align their tiles so).
GS_HOPPER_HD constexpr uint64_t make_desc(uint32_t start, uint32_t lbo, uint32_t sbo, Swizzle s) {
  return desc_field(start) | desc_field(lbo) << 16 | desc_field(sbo) << 32 | static_cast<uint64_t>(s) << 62;
}

// The fields back, for tests and the layout view.
struct DescFields {
  uint32_t start, lbo, sbo, base_offset;
  Swizzle swizzle;
};
GS_HOPPER_HD constexpr DescFields decode_desc(uint64_t d) {
  return {static_cast<uint32_t>(d & 0x3FFF) << 4, static_cast<uint32_t>(d >> 16 & 0x3FFF) << 4,
          static_cast<uint32_t>(d >> 32 & 0x3FFF) << 4, static_cast<uint32_t>(d >> 49 & 7),
          static_cast<Swizzle>(d >> 62 & 3)};
}

// Where element (row, col) of a K-major tile of halves lies, rows of 128 bytes (64 halves along K),
// 128B-swizzled: the layout TMA writes for a box of {64 k, rows} halves and the A descriptor reads.
GS_HOPPER_HD constexpr uint32_t kmajor_offset(int row, int k) {
  return swizzle_offset(static_cast<uint32_t>(row * 128 + k * 2), Swizzle::k128B);
}

// Where element (k, n) of an N-major tile of halves lies when it is stored as boxes of 64 n-columns by
// `box_rows` k-rows, box after box (each 128B-swizzled): the layout of B that TMA writes with boxes of
// {64 n, box_rows k} and the MN-major B descriptor reads with LBO = box_rows * 128 and SBO = 1024.
GS_HOPPER_HD constexpr uint32_t nmajor_offset(int k, int n, int box_rows) {
  return static_cast<uint32_t>((n / 64) * box_rows * 128) +
         swizzle_offset(static_cast<uint32_t>(k * 128 + (n % 64) * 2), Swizzle::k128B);
}

// The wgmma.m64nNk16 fp32 accumulator (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16", figure
// "register fragment layout for accumulator matrix D"): thread t of the warpgroup (warp t / 32 owns rows
// 16 (t / 32) .. + 15) holds N / 2 registers; register i is element
//   row = 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2),  col = 8 (i / 4) + 2 (t % 4) + i % 2,
// i.e. each warp's 16 rows look like N / 8 mma.m16n8 accumulators side by side, registers 4j .. 4j + 3 the
// j-th (c0, c1 on row g, c2, c3 on row g + 8).
struct Cell {
  int row, col;
};
GS_HOPPER_HD constexpr Cell wgmma_acc_cell(int thread, int reg) {
  return {16 * (thread / 32) + (thread % 32) / 4 + 8 * ((reg / 2) % 2), 8 * (reg / 4) + 2 * (thread % 4) + reg % 2};
}

// Grouped tile order of the persistent rungs (the Triton matmul tutorial's GROUP_SIZE_M): tiles are walked
// in bands of `group` tile rows; inside a band, down a column of the band first, then to the next column.
// So the CTAs running at the same time cover a band's few rows times as many columns as fit, and read
// `group` panels of A and (CTAs / group) panels of B instead of one panel of A and every panel of B.
// t: index in launch order (0 .. tiles_m * tiles_n - 1).
struct TileIndex {
  int m, n;
};
GS_HOPPER_HD constexpr TileIndex grouped_tile(int t, int tiles_m, int tiles_n, int group) {
  const int per_band = group * tiles_n;                                   // tiles in one full band
  const int first_m = (t / per_band) * group;                             // band's first tile row
  const int rows = tiles_m - first_m < group ? tiles_m - first_m : group;  // the last band may be short
  const int in_band = t % per_band;
  return {first_m + in_band % rows, in_band / rows};
}

}  // namespace gs::hopper
