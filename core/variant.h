// Variant names (DESIGN.md): "family/NN_short_name[key=value,...]", keys sorted; the bare name is the rung's default.
// Pure string handling, so that it can be fuzzed and tested without the registry.
#pragma once

#include <map>
#include <string>

namespace gs {

// A kernel's name within its family ("07_swizzle[order=none]" of "mma_f16/07_swizzle[order=none]"): how a view
// names it where the family is said already; the whole name where there is no family.
std::string name_in_family(const std::string& kernel);
// The rung a variant varies ("mma_f16/07_swizzle" of "mma_f16/07_swizzle[order=none]"); a rung itself.
std::string rung_of_variant(const std::string& kernel);
// A variant's toggles ({"order": "cutlass:2"} of "mma_f16/07_swizzle[order=cutlass:2]"); none for a rung. Text
// between the first '[' and the last ']', split at commas; an item without '=' is ignored.
std::map<std::string, std::string> variant_toggles(const std::string& kernel);
// The kernel name of a rung with these toggles: "rung[key=value,...]", keys sorted; the rung itself for none.
std::string variant_name(const std::string& rung, const std::map<std::string, std::string>& toggles);

}  // namespace gs
