#include "core/variant.h"

#include <algorithm>

namespace gs {

std::string name_in_family(const std::string& kernel) { return kernel.substr(kernel.find('/') + 1); }

std::string rung_of_variant(const std::string& kernel) { return kernel.substr(0, kernel.find('[')); }

std::map<std::string, std::string> variant_toggles(const std::string& kernel) {
  std::map<std::string, std::string> out;
  const size_t open = kernel.find('['), close = kernel.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  const std::string inside = kernel.substr(open + 1, close - open - 1);
  size_t b = 0;
  while (b <= inside.size()) {
    const size_t e = std::min(inside.find(',', b), inside.size());
    const std::string kv = inside.substr(b, e - b);
    const size_t eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
    b = e + 1;
  }
  return out;
}

std::string variant_name(const std::string& rung, const std::map<std::string, std::string>& toggles) {
  if (toggles.empty()) return rung;
  std::string out = rung + "[";
  for (const auto& [key, value] : toggles) out += (out.back() == '[' ? "" : ",") + key + "=" + value;
  return out + "]";
}

}  // namespace gs
