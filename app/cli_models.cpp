// `banks` and `swizzle`: the pure models of core/, on the command line.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "app/cli.h"
#include "core/banks.h"
#include "core/swizzle.h"

namespace gs {

int cmd_banks(const BanksArgs& a) {
  // CLI11 already restricted --op to the known spellings; ".trans" changes where the rows land in registers, not
  // which shared-memory rows are read, so the banks count it as the plain ldmatrix.
  const std::string plain = a.op.size() > 6 && a.op.compare(a.op.size() - 6, 6, ".trans") == 0 ? a.op.substr(0, a.op.size() - 6) : a.op;
  const SmemOp op = *parse_smem_op(plain);
  if (is_ldmatrix(op) && a.width != 16)  // said, not silently replaced by 16
    return fail("banks", "--width " + std::to_string(a.width) + ": an ldmatrix row address supplies 16 bytes (--width 16)",
                kExitUsage);
  LaneOffsets offsets;
  std::string error;
  // Standard input that cannot be read is said as such, not as "expected 32 offsets, got 0".
  struct stat in {};
  if (::fstat(0, &in) != 0)
    return fail("banks", std::string("cannot read standard input: ") + std::strerror(errno) + " (pipe the 32 offsets in)", kExitUsage);
  if (S_ISDIR(in.st_mode)) return fail("banks", "cannot read standard input: it is a folder", kExitUsage);
  const bool parsed = parse_lane_offsets(std::cin, a.width, op, &offsets, &error);
  if (std::cin.bad()) return fail("banks", "cannot read standard input", kExitRuntime);
  if (!parsed) return fail("banks", error, kExitUsage);
  const BankReport r = bank_report(offsets, a.width, op);
  std::cout << "wavefronts=" << r.wavefronts << " ideal=" << r.ideal << " conflicts=" << r.conflicts << "\n";
  return 0;
}

int cmd_swizzle(const SwizzleArgs& a) {
  int tiles_m = 0, tiles_n = 0;
  SwizzleScheme scheme;
  std::string error;
  if (!parse_tiles(a.tiles, &tiles_m, &tiles_n, &error)) return fail("swizzle", "--tiles: " + error, kExitUsage);
  if (!parse_swizzle_scheme(a.scheme, &scheme, &error)) return fail("swizzle", "--scheme: " + error, kExitUsage);
  std::cout << swizzle_csv(launch_order(tiles_m, tiles_n, scheme));
  return 0;
}

}  // namespace gs
