// Shared-memory bank model: how many wavefronts one warp's shared-memory instruction takes, and which
// lanes each wavefront serves, as Nsight Compute counts them on sm_90 (DESIGN.md, `banks`):
// W = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld|st (ldmatrix: sm__sass_..._op_ldsm), C = the
// matching l1tex__data_bank_conflicts_... counter, I = W - C. banks.cpp states the rules; every one of
// them was fitted to, and is checked against, tests/data/bank_probe_h100.tsv (one warp, one instruction
// per launch, measured with ncu on an H100).
//
// Shared memory on Volta..Hopper: 32 banks of 4-byte words, word w lives in bank w % 32. One wavefront
// reads or writes at most one word per bank (128 bytes) and returns at most 128 bytes to registers.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

inline constexpr int kSmemBanks = 32;
inline constexpr int kSmemBankBytes = 4;
inline constexpr int kWavefrontBytes = kSmemBanks * kSmemBankBytes;  // 128
// Largest shared memory a block can use on the GPUs gemmscope targets (H100/H200: 227 KiB per block of
// 228 KiB per SM); a byte offset at or past this cannot be a shared-memory address.
inline constexpr uint32_t kMaxSmemBytes = 228u * 1024u;

// One byte offset per lane of a warp; nullopt: the lane did not take part (predicated off or exited).
using LaneOffsets = std::array<std::optional<uint32_t>, 32>;

// ld.shared, st.shared, cp.async's shared-memory write, ldmatrix. The ldmatrix enumerators come last and
// in this order (bank_sites.cpp keeps the widest of a site's executions with std::max).
enum class SmemOp { Lds, Sts, CpAsync, LdmatrixX1, LdmatrixX2, LdmatrixX4 };

std::optional<SmemOp> parse_smem_op(std::string_view s);  // "lds", "sts", "cp.async", "ldmatrix.x1", ".x2", ".x4"
const char* smem_op_name(SmemOp op);                       // the same spellings
int ldmatrix_matrices(SmemOp op);                          // 8x8 matrices an ldmatrix loads; 0 otherwise
inline bool is_ldmatrix(SmemOp op) { return ldmatrix_matrices(op) > 0; }

inline int bank_of(uint32_t byte_offset) { return static_cast<int>((byte_offset / kSmemBankBytes) % kSmemBanks); }

// One bank in one wavefront: the word it reads and the lanes that asked for it (several: a broadcast);
// no lanes: the bank is idle in that wavefront.
struct BankSlot {
  uint32_t word = 0;       // byte offset / 4
  std::vector<int> lanes;  // ascending
};

struct BankReport {
  int wavefronts = 0;  // W: what Nsight Compute counts for this one instruction
  int ideal = 0;       // I: phases with an active lane (cp.async: banks.cpp)
  int conflicts = 0;   // C = W - I, Nsight Compute's bank-conflict count for this instruction
  // Lanes per phase for this access (phase p holds lanes p * phase_lanes ..): 32, 16 or 8 (banks.cpp), and
  // whether an 8- or 16-byte load's lane pairs read the same addresses, which halves its phases.
  int phase_lanes = 32;
  bool packed = false;
  // Lanes each wavefront served, in issue order, ascending within a wavefront. A lane whose 8- or 16-byte
  // access spans banks served in different wavefronts appears in each of them. For ldmatrix the lanes are
  // those that supplied a row address (the data itself lands in every lane's fragment).
  std::vector<std::vector<int>> wavefront_lanes;
  // Per wavefront (parallel to wavefront_lanes): what each of the 32 banks reads, what a picture of the
  // access draws; and the phase it belongs to (lanes phase_lanes() * p .. upwards; for ldmatrix, matrix p).
  // Wavefronts of one phase are consecutive, so a bank busy in n of them holds n distinct words: n-way.
  std::vector<std::array<BankSlot, kSmemBanks>> wavefront_banks;
  std::vector<int> wavefront_phase;
};

// Lanes whose requests the hardware serves together (conflicts exist only inside such a phase) for this
// access: lds 32 (2 or 4 bytes), 32 or 16 (8 bytes), 16 or 8 (16 bytes), the larger when the load is packed
// (lane pairs l, l^1 or l, l^2 read the same address wherever both are active); sts 32, 16 or 8;
// cp.async 8; ldmatrix 8 (one matrix's row addresses).
int phase_lanes(const LaneOffsets& byte_offsets, int width_bytes, SmemOp op);

// Whether bank_report takes `width_bytes` for `op` (ldmatrix ignores it): 4, 8 or 16, and 2 for lds and sts.
bool smem_width_ok(int width_bytes, SmemOp op);

// Wavefronts for one warp-wide access. width_bytes: 4, 8 or 16 for lds, sts and cp.async, 2 for lds and sts (each lane
// reads or writes [offset, offset + width)); ignored for ldmatrix, whose rows are always 16 bytes. Throws
// std::invalid_argument for another width. A warp with no active lane makes no request: {0, 0, 0}.
BankReport bank_report(const LaneOffsets& byte_offsets, int width_bytes, SmemOp op);

// Alignment the hardware requires of each lane's address: the access width, 16 bytes for an ldmatrix row.
int required_alignment(int width_bytes, SmemOp op);

// Reads exactly 32 whitespace-separated tokens, one per lane: decimal or 0x hex byte offsets below
// kMaxSmemBytes, or "-" for an inactive lane. On failure returns false and sets *error to one line
// ("expected 32 offsets, got 31", "token 5 'x12' is not a number"); tokens count from 1, lanes from 0.
bool parse_lane_offsets(std::istream& in, LaneOffsets* out, std::string* error);

// "lane 3: offset 6 is not aligned to 4 bytes" for the first active lane whose offset is not a multiple
// of required_alignment(width_bytes, op); for an ldmatrix, "-" in one of the lanes that supply its rows too.
bool check_lane_alignment(const LaneOffsets& offsets, int width_bytes, SmemOp op, std::string* error);

// parse_lane_offsets, then check_lane_alignment: what `gemmscope banks` needs.
bool parse_lane_offsets(std::istream& in, int width_bytes, SmemOp op, LaneOffsets* out, std::string* error);

}  // namespace gs
