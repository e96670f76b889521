// libFuzzer target: variant names, "family/NN_name[key=value,...]" (issue 16, item 2). Any text splits into a rung
// (a prefix of it) and toggles without crashing; toggles whose keys and values are plain text survive
// variant_name and back.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/variant.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name(reinterpret_cast<const char*>(data), size);
  const std::string rung = gs::rung_of_variant(name);
  if (name.compare(0, rung.size(), rung) != 0 || rung.find('[') != std::string::npos) std::abort();
  const auto toggles = gs::variant_toggles(name);
  bool plain = true;
  for (const auto& [k, v] : toggles)
    plain = plain && k.find_first_of(",=[]") == std::string::npos && v.find_first_of(",[]") == std::string::npos;
  if (plain && gs::variant_toggles(gs::variant_name(rung, toggles)) != toggles) std::abort();
  if (toggles.empty() && gs::variant_name(rung, toggles) != rung) std::abort();
  return 0;
}
