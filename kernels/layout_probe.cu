// Probe kernels that discover tensor-core fragment layouts on the GPU they run on.
// wmma: load_matrix_sync fills the fragments from matrices whose values are their own row-major
// index, so every slot's value is a genuine trace of where the hardware put that element.
// mma.sync: registers are whatever the programmer puts there, so the layout is traced through the
// product instead: one warp per experiment, each operand placed by the documented layouts of the
// other two (core/layout_trace.h says how), all experiments of one op in one launch.
// ldmatrix: like wmma, a load from memory whose values are their own tile index, here a shared-memory
// tile with each lane supplying the row address the documented supplier rule gives it.
#include "kernels/layout_probe.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/layout.h"
#include "core/layout_trace.h"
#include "kernels/hopper/wgmma_probe.h"
#include "kernels/wmma/common.cuh"

namespace gs {

namespace {

// ---- mma.sync: one tag per op, its register counts and its instruction ------------------------
// Counts are per lane and must equal core's register_of packing (checked before launch).
// Float accumulators go through "f" constraints: PTX type-checks .f32 operands against .f32 or
// .b32 registers, and "r" would declare .u32 ones.
// Below sm_80 (a build with an older arch in its list) these instructions do not exist; the host
// refuses such devices before launching, so that code path only traps.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GS_PROBE_MMA 0
#else
#define GS_PROBE_MMA 1
#endif

struct MmaM16N8K16F16 {
  static constexpr int kRegsA = 4, kRegsB = 2, kRegsC = 4;
  __device__ static void mma(uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
#if GS_PROBE_MMA
    float f[4];
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(__uint_as_float(c[0])),
          "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
    for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(f[i]);
#else
    __trap();
#endif
  }
};

struct MmaM16N8K8F16 {
  static constexpr int kRegsA = 2, kRegsB = 1, kRegsC = 4;
  __device__ static void mma(uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
#if GS_PROBE_MMA
    float f[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
                 : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])),
                   "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
    for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(f[i]);
#else
    __trap();
#endif
  }
};

// tf32 operands are .b32 registers holding fp32 bits; the tensor core ignores the low 13 bits.
struct MmaM16N8K8Tf32 {
  static constexpr int kRegsA = 4, kRegsB = 2, kRegsC = 4;
  __device__ static void mma(uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
#if GS_PROBE_MMA
    float f[4];
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(__uint_as_float(c[0])),
          "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
    for (int i = 0; i < 4; ++i) d[i] = __float_as_uint(f[i]);
#else
    __trap();
#endif
  }
};

// s8 operands: four bytes per .b32, lowest byte first; .s32 accumulators in "r" (.u32 and .s32 are
// the same size and kind for PTX's type check).
struct MmaM8N8K16S8 {
  static constexpr int kRegsA = 1, kRegsB = 1, kRegsC = 2;
  __device__ static void mma(uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
#if GS_PROBE_MMA
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};\n"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    __trap();
#endif
  }
};

struct MmaM16N8K32S8 {
  static constexpr int kRegsA = 4, kRegsB = 2, kRegsC = 4;
  __device__ static void mma(uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c) {
#if GS_PROBE_MMA
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]),
          "r"(c[3]));
#else
    __trap();
#endif
  }
};

// One block = one warp = one experiment. Arrays are [experiment][lane][reg]; the fixed-size local
// arrays stay in registers because every index is a compile-time constant after unrolling.
template <class Op>
__global__ void __launch_bounds__(32) mma_probe_kernel(const uint32_t* __restrict__ a, const uint32_t* __restrict__ b,
                                                       const uint32_t* __restrict__ c, uint32_t* __restrict__ d) {
  const size_t slot = static_cast<size_t>(blockIdx.x) * 32 + threadIdx.x;  // (experiment, lane)
  uint32_t ra[Op::kRegsA], rb[Op::kRegsB], rc[Op::kRegsC], rd[Op::kRegsC];
#pragma unroll
  for (int i = 0; i < Op::kRegsA; ++i) ra[i] = a[slot * Op::kRegsA + i];
#pragma unroll
  for (int i = 0; i < Op::kRegsB; ++i) rb[i] = b[slot * Op::kRegsB + i];
#pragma unroll
  for (int i = 0; i < Op::kRegsC; ++i) rc[i] = c[slot * Op::kRegsC + i];
  Op::mma(rd, ra, rb, rc);
#pragma unroll
  for (int i = 0; i < Op::kRegsC; ++i) d[slot * Op::kRegsC + i] = rd[i];
}

// ---- wmma: one warp loads A, B and C of one shape -------------------------------------------
constexpr int kWmmaSlots = 32;  // output stride per lane: room for any fragment's num_elements

// out: [operand A, B, C][lane][kWmmaSlots] slot values as floats; counts: num_elements per operand,
// written from the device so the host checks the fragment size the GPU code really used.
template <int M, int N, int K>
__global__ void __launch_bounds__(32) wmma_probe_kernel(const __half* __restrict__ a, const __half* __restrict__ b,
                                                        const float* __restrict__ c, float* __restrict__ out,
                                                        int* __restrict__ counts) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  __trap();  // nvcuda::wmma does not exist below sm_70 (and the host refuses below sm_80)
#else
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, M, N, K, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> fc;
  static_assert(decltype(fa)::num_elements <= kWmmaSlots && decltype(fb)::num_elements <= kWmmaSlots &&
                    decltype(fc)::num_elements <= kWmmaSlots,
                "a wmma fragment is larger than the probe's output stride");
  // Leading dimensions of the dense row-major operands: A is M x K, B is K x N, C is M x N.
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, N);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  const int lane = threadIdx.x;
  for (int i = 0; i < fa.num_elements; ++i) out[(0 * 32 + lane) * kWmmaSlots + i] = __half2float(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i) out[(1 * 32 + lane) * kWmmaSlots + i] = __half2float(fb.x[i]);
  for (int i = 0; i < fc.num_elements; ++i) out[(2 * 32 + lane) * kWmmaSlots + i] = fc.x[i];
  if (lane == 0) {
    counts[0] = fa.num_elements;
    counts[1] = fb.num_elements;
    counts[2] = fc.num_elements;
  }
#endif
}

// ---- wmma accumulators in shared memory: where store_matrix_sync puts each pair ----------------------
// The bank probe records a staged accumulator as four pairs per lane at wmma_common::acc_pair. One warp
// stores a fragment whose elements are their own (lane, elem) index, then every lane looks for each of its
// pairs where acc_pair says; and loads a tile whose values are their own index, and compares its pairs with
// what acc_pair points at. out[lane]: the mismatches of that lane (0 when the formula is the hardware's).
constexpr int kAccLd = 24;  // a padded row stride, so that a row-major formula with the wrong stride fails
template <class T>
__global__ void __launch_bounds__(32) wmma_acc_pairs_kernel(int* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  __trap();
#else
  using namespace nvcuda;
  __shared__ __align__(32) T tile[16 * kAccLd];
  const int lane = threadIdx.x;
  for (int i = lane; i < 16 * kAccLd; i += 32) tile[i] = T(-1.0f);
  __syncwarp();
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  for (int e = 0; e < f.num_elements; ++e) f.x[e] = T(float(lane * f.num_elements + e));
  wmma::store_matrix_sync(tile, f, kAccLd, wmma::mem_row_major);
  __syncwarp();
  int bad = f.num_elements == 2 * wmma_common::kAccPairs ? 0 : 100;
  for (int p = 0; p < wmma_common::kAccPairs; ++p) {
    const T* q = wmma_common::acc_pair(static_cast<const T*>(tile), kAccLd, lane, p);
    bad += float(q[0]) != float(lane * f.num_elements + 2 * p);
    bad += float(q[1]) != float(lane * f.num_elements + 2 * p + 1);
  }
  __syncwarp();
  for (int i = lane; i < 16 * kAccLd; i += 32) tile[i] = T(float(i));
  __syncwarp();
  wmma::load_matrix_sync(f, tile, kAccLd, wmma::mem_row_major);
  for (int p = 0; p < wmma_common::kAccPairs; ++p) {
    const T* q = wmma_common::acc_pair(static_cast<const T*>(tile), kAccLd, lane, p);
    bad += float(f.x[2 * p]) != float(q[0]);
    bad += float(f.x[2 * p + 1]) != float(q[1]);
  }
  out[lane] = bad;
#endif
}

// ---- ldmatrix: one warp loads 1, 2 or 4 8x8 b16 matrices ----------------------------------------
// ldmatrix exists from sm_75; the host refuses devices below 8.0, so older code paths only trap.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
#define GS_PROBE_LDMATRIX 0
#else
#define GS_PROBE_LDMATRIX 1
#endif

constexpr int kLdmatrixMaxTile = 16 * 16;  // .x4's 16x16 tile, in b16 elements

// One instruction per variant: the register count and .trans are part of the opcode, not operands.
// "memory" tells the compiler the asm reads shared memory, so the tile stores are not moved past it.
template <int Num, bool Trans>
__device__ void ldmatrix(uint32_t* r, uint32_t addr) {
#if GS_PROBE_LDMATRIX
  if constexpr (Num == 1 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(addr) : "memory");
  if constexpr (Num == 1 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(addr) : "memory");
  if constexpr (Num == 2 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
  if constexpr (Num == 2 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr)
                 : "memory");
  if constexpr (Num == 4 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
  if constexpr (Num == 4 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
#else
  __trap();
#endif
}

// tile: the row-major b16 tile, each element its own index (tile_elems of them); offsets: [lane] byte
// offset of the row address that lane supplies; out: [lane][Num] registers as loaded.
template <int Num, bool Trans>
__global__ void __launch_bounds__(32) ldmatrix_probe_kernel(const uint16_t* __restrict__ tile, int tile_elems,
                                                            const uint32_t* __restrict__ offsets,
                                                            uint32_t* __restrict__ out) {
  // 16-byte alignment: every row address must be, and the offsets are multiples of 16 from the start.
  __shared__ __align__(16) uint16_t smem[kLdmatrixMaxTile];
  const int lane = threadIdx.x;
  for (int i = lane; i < tile_elems; i += 32) smem[i] = tile[i];
  __syncwarp();  // every lane's stores visible to the warp-wide load
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint32_t r[Num];
  ldmatrix<Num, Trans>(r, base + offsets[lane]);
#pragma unroll
  for (int i = 0; i < Num; ++i) out[lane * Num + i] = r[i];
}

// ---- host side ------------------------------------------------------------------------------
// Thrown with a finished line; trace_fragment_layouts turns it into its error.
struct ProbeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t st, const std::string& what) {
  if (st != cudaSuccess) throw ProbeError(what + ": " + cudaGetErrorString(st) + " (" + cudaGetErrorName(st) + ")");
}

// Owns one device allocation, so an early throw frees what was allocated before it.
template <class T>
class DeviceArray {
 public:
  DeviceArray(size_t count, const std::string& what) : count_(count) {
    check(cudaMalloc(reinterpret_cast<void**>(&p_), bytes()), "cudaMalloc (" + what + ")");
  }
  ~DeviceArray() {
    if (p_) cudaFree(p_);  // a failure here has no one to report to; the trace already succeeded or failed
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  size_t bytes() const { return count_ * sizeof(T); }
  void upload(const void* host, const std::string& what) {
    check(cudaMemcpy(p_, host, bytes(), cudaMemcpyHostToDevice), "cudaMemcpy to device (" + what + ")");
  }
  void poison(const std::string& what) {  // all-ones bytes: NaN as float, -1 as int
    check(cudaMemset(p_, 0xFF, bytes()), "cudaMemset (" + what + ")");
  }
  std::vector<T> download(const std::string& what) const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), p_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy to host (" + what + ")");
    return host;
  }

 private:
  T* p_ = nullptr;
  size_t count_;
};

// Launch errors come from cudaGetLastError; faults inside the kernel only at the next synchronisation.
void finish_launch(const std::string& what) {
  check(cudaGetLastError(), "launching the " + what + " probe");
  check(cudaDeviceSynchronize(), "running the " + what + " probe");
}

template <class Op>
std::vector<FragmentLayout> trace_mma(const MmaOp& op) {
  const MmaLayouts assumed = documented_mma_layouts(op);
  const MmaTraceBatch batch = plan_mma_trace(op, assumed);
  if (batch.regs_a != Op::kRegsA || batch.regs_b != Op::kRegsB || batch.regs_c != Op::kRegsC)
    throw ProbeError(op.name + ": core packs A, B, C into " + std::to_string(batch.regs_a) + ", " +
                     std::to_string(batch.regs_b) + ", " + std::to_string(batch.regs_c) +
                     " registers per lane but the probe kernel uses " + std::to_string(Op::kRegsA) + ", " +
                     std::to_string(Op::kRegsB) + ", " + std::to_string(Op::kRegsC));
  DeviceArray<uint32_t> a(batch.a.size(), op.name + " A"), b(batch.b.size(), op.name + " B"),
      c(batch.c.size(), op.name + " C"), d(batch.c.size(), op.name + " D");
  a.upload(batch.a.data(), op.name + " A");
  b.upload(batch.b.data(), op.name + " B");
  c.upload(batch.c.data(), op.name + " C");
  d.poison(op.name + " D");  // a slot the GPU leaves unwritten decodes as nothing, not as (0,0)
  mma_probe_kernel<Op><<<batch.experiments, 32>>>(a.get(), b.get(), c.get(), d.get());
  finish_launch(op.name);
  return decode_mma_trace(op, assumed, d.download(op.name + " D"));
}

template <int M, int N, int K>
std::vector<FragmentLayout> trace_wmma(const MmaOp& op) {
  if (op.m != M || op.n != N || op.k != K) throw ProbeError(op.name + ": shape differs from its probe kernel's");
  const std::vector<uint16_t> ha = coordinate_matrix_f16(M, K), hb = coordinate_matrix_f16(K, N);
  const std::vector<float> hc = coordinate_matrix_f32(M, N);
  // cudaMalloc's 256-byte alignment covers load_matrix_sync's 32-byte requirement.
  DeviceArray<__half> a(ha.size(), op.name + " A"), b(hb.size(), op.name + " B");
  DeviceArray<float> c(hc.size(), op.name + " C"), out(3 * 32 * kWmmaSlots, op.name + " slots");
  DeviceArray<int> counts(3, op.name + " counts");
  a.upload(ha.data(), op.name + " A");  // __half and its bit pattern are both 2 bytes
  b.upload(hb.data(), op.name + " B");
  c.upload(hc.data(), op.name + " C");
  out.poison(op.name + " slots");
  counts.poison(op.name + " counts");
  wmma_probe_kernel<M, N, K><<<1, 32>>>(a.get(), b.get(), c.get(), out.get(), counts.get());
  finish_launch(op.name);
  const std::vector<float> slots = out.download(op.name + " slots");
  const std::vector<int> n = counts.download(op.name + " counts");

  std::vector<FragmentLayout> layouts;
  const Operand operands[3] = {Operand::A, Operand::B, Operand::C};
  for (int i = 0; i < 3; ++i) {
    const int elems = fragment_elems(op, operands[i]);
    // core's element count sizes the view and the capture; a different GPU-side fragment must not be cut short.
    if (n[i] != elems)
      throw ProbeError(op.name + " " + operand_name(operands[i]) + ": the GPU fragment has " + std::to_string(n[i]) +
                       " elements per lane, core/layout expects " + std::to_string(elems));
    std::vector<float> values(32 * static_cast<size_t>(elems));
    for (int lane = 0; lane < 32; ++lane)
      for (int e = 0; e < elems; ++e) values[lane * elems + e] = slots[(i * 32 + lane) * kWmmaSlots + e];
    layouts.push_back(decode_wmma_trace(op, operands[i], values));
  }
  return layouts;
}

template <int Num, bool Trans>
std::vector<FragmentLayout> trace_ldmatrix(const MmaOp& op) {
  const LdmatrixProbe p = plan_ldmatrix_trace(op);
  if (p.regs != Num || op.trans != Trans)
    throw ProbeError(op.name + ": core plans " + std::to_string(p.regs) + " registers" +
                     (op.trans ? " with .trans" : "") + " but the probe kernel loads " + std::to_string(Num) +
                     (Trans ? " with .trans" : ""));
  if (p.tile.size() > static_cast<size_t>(kLdmatrixMaxTile))
    throw ProbeError(op.name + ": the tile is larger than the probe's shared-memory buffer");
  DeviceArray<uint16_t> tile(p.tile.size(), op.name + " tile");
  DeviceArray<uint32_t> offsets(p.offsets.size(), op.name + " row addresses"), out(32 * Num, op.name + " registers");
  tile.upload(p.tile.data(), op.name + " tile");
  offsets.upload(p.offsets.data(), op.name + " row addresses");
  out.poison(op.name + " registers");  // an unwritten half reads 0xFFFF, no index of the tile: (-1,-1)
  ldmatrix_probe_kernel<Num, Trans>
      <<<1, 32>>>(tile.get(), static_cast<int>(p.tile.size()), offsets.get(), out.get());
  finish_launch(op.name);
  return {decode_ldmatrix_trace(op, out.download(op.name + " registers"))};
}

// wgmma (sm_90 only): the accumulator through the product, as mma.sync's D experiment (core plans A and B).
// On any other GPU the op keeps its documented layout alone: the probe kernel has no image there.
std::vector<FragmentLayout> trace_wgmma(const MmaOp& op) {
  if (op.m != hopper::kWgmmaProbeM || op.n != hopper::kWgmmaProbeN || op.k != hopper::kWgmmaProbeK)
    throw ProbeError(op.name + ": shape differs from its probe kernel's");
  if (!hopper::wgmma_probe_runs_here()) return {};
  const WgmmaTraceInputs in = plan_wgmma_trace(op);
  DeviceArray<uint16_t> a(in.a.size(), op.name + " A"), b(in.b.size(), op.name + " B");
  DeviceArray<float> d(size_t(op.threads) * op.elems_c, op.name + " D");
  a.upload(in.a.data(), op.name + " A");
  b.upload(in.b.data(), op.name + " B");
  d.poison(op.name + " D");  // NaN: a register the GPU leaves unwritten decodes as no element
  check(hopper::launch_wgmma_acc_probe(a.get(), b.get(), d.get()), "launching the " + op.name + " probe");
  finish_launch(op.name);
  return {decode_wmma_trace(op, Operand::C, d.download(op.name + " D"))};
}

// Which probe traces which op; names must match core's mma_ops().
struct Probe {
  const char* op;
  std::vector<FragmentLayout> (*trace)(const MmaOp&);
};
const Probe kProbes[] = {
    {"mma.m16n8k16.f16", trace_mma<MmaM16N8K16F16>},
    {"mma.m16n8k8.f16", trace_mma<MmaM16N8K8F16>},
    {"mma.m16n8k8.tf32", trace_mma<MmaM16N8K8Tf32>},
    {"mma.m8n8k16.s8", trace_mma<MmaM8N8K16S8>},
    {"mma.m16n8k32.s8", trace_mma<MmaM16N8K32S8>},
    {"wmma.m16n16k16.f16", trace_wmma<16, 16, 16>},
    {"wmma.m32n8k16.f16", trace_wmma<32, 8, 16>},
    {"wmma.m8n32k16.f16", trace_wmma<8, 32, 16>},
    {"ldmatrix.x1", trace_ldmatrix<1, false>},
    {"ldmatrix.x2", trace_ldmatrix<2, false>},
    {"ldmatrix.x4", trace_ldmatrix<4, false>},
    {"ldmatrix.x1.trans", trace_ldmatrix<1, true>},
    {"ldmatrix.x2.trans", trace_ldmatrix<2, true>},
    {"ldmatrix.x4.trans", trace_ldmatrix<4, true>},
    {"wgmma.m64n16k16.f16", trace_wgmma},
};

}  // namespace

std::string check_wmma_acc_pairs() {
  try {
    DeviceArray<int> out(64, "acc pairs");
    out.poison("acc pairs");
    wmma_acc_pairs_kernel<float><<<1, 32>>>(out.get());
    finish_launch("wmma accumulator pairs (float)");
    wmma_acc_pairs_kernel<__half><<<1, 32>>>(out.get() + 32);
    finish_launch("wmma accumulator pairs (half)");
    const std::vector<int> bad = out.download("acc pairs");
    for (int i = 0; i < 64; ++i)
      if (bad[i] != 0)
        return std::string(i < 32 ? "float" : "half") + " accumulator, lane " + std::to_string(i % 32) + ": " +
               std::to_string(bad[i]) + " elements are not where wmma_common::acc_pair puts them";
    return "";
  } catch (const std::exception& e) {
    return std::string("wmma accumulator pairs: ") + e.what();
  }
}

std::vector<FragmentLayout> trace_fragment_layouts(std::string* error) {
  if (error) error->clear();
  try {
    int device = 0, major = 0, minor = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "reading the compute capability");
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "reading the compute capability");
    if (major < 8)
      throw ProbeError("device " + std::to_string(device) + " has compute capability " + std::to_string(major) + "." +
                       std::to_string(minor) + "; the mma.sync probes need 8.0 or newer");
    std::vector<FragmentLayout> all;
    for (const MmaOp& op : mma_ops())
      for (const Probe& p : kProbes)
        if (op.name == p.op)
          for (FragmentLayout& l : p.trace(op)) all.push_back(std::move(l));
    return all;
  } catch (const std::exception& e) {  // ProbeError, and core's std::invalid_argument on a planning bug
    if (error) *error = std::string("layout probe: ") + e.what();
    return {};
  }
}

}  // namespace gs
