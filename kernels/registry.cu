// The ladder: ONE table, in ladder order, that the window's kernel list, the CLI, the tests and the
// README iterate (STYLE.md #1). Each family's rungs are registered in kernels/<family>/ladder.cu
// (adding a rung = one #include and one block there); this file puts the families in order.
#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <vector>

#include "core/swizzle.h"
#include "core/text.h"
#include "kernels/gemm.h"
#include "kernels/registry_internal.cuh"
#include "kernels/testing.h"

namespace gs {
namespace detail {
namespace {

std::vector<Rung> build_ladder() {
  std::vector<Rung> ladder;
  for (auto family : {sgemm_rungs, wmma_rungs, mma_f16_rungs, mma_tf32_rungs, hopper_rungs}) {
    std::vector<Rung> rungs = family();
    for (Rung& r : rungs) ladder.push_back(std::move(r));
  }
  for (Rung& g : ladder) {
    for (const PrecisionLaunch& l : g.launch) g.info.precisions.push_back(l.precision);
  }
  return ladder;
}

}  // namespace

Rung order_variant(const Rung& rung, int code, std::vector<PrecisionLaunch> launch) {
  const BlockOrder o = order_of_code(code);
  // core/swizzle.h's spelling of the scheme ("none", "cutlass:2", "triton:8"), the one `gemmscope swizzle` takes.
  SwizzleScheme s;
  s.kind = o.kind == BlockOrder::kCutlass ? SwizzleScheme::Kind::Cutlass
           : o.kind == BlockOrder::kTriton ? SwizzleScheme::Kind::Triton
                                    : SwizzleScheme::Kind::None;
  s.param = o.param;
  const std::string scheme = swizzle_scheme_name(s);
  const std::string p = std::to_string(o.param);
  std::string adds;
  switch (o.kind) {
    case BlockOrder::kCutlass:
      adds = "Variant: the same kernel with its blocks launched in CUTLASS's identity swizzle order with bands of " +
             std::to_string(1 << o.param) + (o.param == 0 ? " tile column (column-major over C)" : " tile columns") +
             ": a band's tiles of one row of C, then the same band one row down, through all rows, then the "
             "next band (cutlass:" + p + ").";
      break;
    case BlockOrder::kTriton:
      adds = "Variant: the same kernel with its blocks launched in Triton's grouped order, GROUP_SIZE_M = " + p +
             ": column by column inside bands of " + p + (o.param == 1 ? " tile row (row-major over C)" : " tile rows") +
             ", one band after another (triton:" + p + ").";
      break;
    default:
      adds = "Variant: the same kernel with its blocks launched in plain row-major order over the tiles of C, "
             "one whole tile row after another (none).";
  }
  Rung v = toggle_variant(rung, "order", scheme, std::move(adds), std::move(launch));
  v.info.order_scheme = scheme;
  return v;
}

const std::vector<Rung>& rungs() {
  static const std::vector<Rung> ladder = build_ladder();
  return ladder;
}

const Rung* find_rung(const std::string& name) {
  for (const Rung& r : rungs()) {
    if (r.info.name == name) return &r;
  }
  return nullptr;
}

const PrecisionLaunch* find_launch(const Rung& r, Precision p) {
  for (const PrecisionLaunch& l : r.launch) {
    if (l.precision == p) return &l;
  }
  return nullptr;
}

}  // namespace detail

const std::vector<KernelInfo>& kernel_registry() {
  static const std::vector<KernelInfo> infos = [] {
    std::vector<KernelInfo> v;
    for (const detail::Rung& r : detail::rungs()) v.push_back(r.info);
    return v;
  }();
  return infos;
}

const KernelInfo* find_kernel(const std::string& name) {
  for (const KernelInfo& k : kernel_registry()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

namespace {

// The rungs by name; their variants (rung[key=value]) are many and `gemmscope list` prints them.
std::string known_kernels() {
  std::string all;
  for (const KernelInfo& k : kernel_registry())
    if (k.name.find('[') == std::string::npos) all += (all.empty() ? "" : ", ") + k.name;
  return all;
}

// The end of the name that starts at `begin` in a comma-separated list: the next comma outside brackets, so a
// variant's toggles (rung[a=1,b=2]) stay in one name.
size_t name_end(const std::string& list, size_t begin) {
  int depth = 0;
  for (size_t i = begin; i < list.size(); ++i) {
    if (list[i] == '[') ++depth;
    if (list[i] == ']' && depth > 0) --depth;
    if (list[i] == ',' && depth == 0) return i;
  }
  return list.size();
}

}  // namespace

std::string unknown_kernel(const std::string& name, bool brief) {
  const std::string shown = name.substr(0, 80);
  // A rung that exists with a variant that does not: say which variants it has.
  const size_t bracket = name.find('[');
  if (bracket != std::string::npos && find_kernel(name.substr(0, bracket))) {
    const std::string rung = name.substr(0, bracket);
    std::string variants;
    for (const KernelInfo& k : kernel_registry())
      if (k.name.size() > rung.size() && k.name.compare(0, rung.size() + 1, rung + "[") == 0)
        variants += (variants.empty() ? "" : ", ") + k.name.substr(rung.size());
    return "unknown kernel '" + shown + "': " + rung + " has " +
           (variants.empty() ? std::string("no variants") : "the variants " + variants) + " (gemmscope list)";
  }
  // A rung named by its start ("sgemm/01", "mma_f16/10_multi"): the rungs it begins, where they are few.
  std::vector<std::string> starts;
  for (const KernelInfo& k : kernel_registry())
    if (!name.empty() && k.name.find('[') == std::string::npos && k.name.compare(0, name.size(), name) == 0)
      starts.push_back(k.name);
  if (!starts.empty() && starts.size() <= 3)
    return "unknown kernel '" + shown + "': did you mean " + join_list(starts) + "? (gemmscope list)";
  if (brief) return "unknown kernel '" + shown + "': not one of this build's (gemmscope list)";
  return "unknown kernel '" + shown + "' (`gemmscope list` prints every rung and variant; rungs: " + known_kernels() + ")";
}

bool select_kernels(const std::string& list, std::vector<const KernelInfo*>* out, std::string* error) {
  const std::vector<KernelInfo>& all = kernel_registry();
  std::vector<bool> chosen(all.size(), false);
  const std::string whole = trim(list);
  if (whole.empty() || whole == "all") {
    chosen.assign(all.size(), true);
  } else {
    size_t begin = 0;
    while (begin <= list.size()) {
      const size_t comma = name_end(list, begin);
      const std::string name = trim(list.substr(begin, comma - begin));
      begin = comma + 1;
      if (name.empty()) continue;
      if (name == "all") {
        chosen.assign(all.size(), true);
        continue;
      }
      const KernelInfo* k = find_kernel(name);
      if (!k) {
        if (error) *error = unknown_kernel(name);
        return false;
      }
      chosen[static_cast<size_t>(k - all.data())] = true;
    }
  }
  // Ladder order whatever order the list named them in, each once.
  out->clear();
  for (size_t i = 0; i < all.size(); ++i) {
    if (chosen[i]) out->push_back(&all[i]);
  }
  if (out->empty()) {
    if (error) *error = "no kernel named in '" + list + "' (`gemmscope list` prints every rung and variant)";
    return false;
  }
  return true;
}

std::string shape_text(GemmShape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

bool parse_shape(const std::string& s, GemmShape* out) {
  int dims[3] = {0, 0, 0};
  size_t pos = 0;
  for (int d = 0; d < 3; ++d) {
    if (d > 0) {
      if (pos >= s.size() || (s[pos] != 'x' && s[pos] != 'X')) return false;
      ++pos;
    }
    long long v = 0;
    const size_t start = pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      v = v * 10 + (s[pos] - '0');
      if (v > INT_MAX) return false;
      ++pos;
    }
    if (pos == start || v <= 0) return false;
    dims[d] = static_cast<int>(v);
  }
  if (pos != s.size()) return false;
  out->m = dims[0];
  out->n = dims[1];
  out->k = dims[2];
  return true;
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::F32: return "f32";
    case Precision::F16_F32: return "f16.f32";
    case Precision::F16_F16: return "f16.f16";
    case Precision::TF32: return "tf32";
  }
  return "?";
}

bool parse_precision(const std::string& s, Precision* out) {
  for (Precision p : {Precision::F32, Precision::F16_F32, Precision::F16_F16, Precision::TF32}) {
    if (s == precision_name(p)) {
      *out = p;
      return true;
    }
  }
  return false;
}

double error_bound(Precision p) {
  // Relative Frobenius error against cuBLAS of the same precision. fp32 differs from cuBLAS only in
  // summation order; fp16 inputs are identical on both sides; tf32 rounding of the inputs may differ
  // (round-to-nearest vs truncation); an fp16 accumulator rounds at every k-step.
  switch (p) {
    case Precision::F32: return 1e-4;
    case Precision::F16_F32: return 1e-3;
    case Precision::F16_F16: return 1e-2;
    case Precision::TF32: return 5e-3;
  }
  return 0;
}

RunRecord RunResult::record() const {
  RunRecord r;
  r.kernel = kernel;
  r.m = shape.m;
  r.n = shape.n;
  r.k = shape.k;
  r.dtype = precision_name(precision);
  r.median_ms = median_ms;
  r.tflops = tflops;
  r.cublas_tflops = cublas_tflops;
  r.rel_err = rel_err;
  r.samples_ms = samples_ms;
  r.cublas_paired = cublas_paired;
  return r;
}

}  // namespace gs

namespace gs::test_hooks {

bool shape_supported(const KernelInfo& k, GemmShape s) {
  const detail::Rung* r = detail::find_rung(k.name);
  return r && r->supports(s.m, s.n, s.k);
}

}  // namespace gs::test_hooks
