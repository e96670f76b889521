// Small text helpers shared by the command line, the settings, the diff and the registry.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace gs {

// `s` without the white space (spaces, tabs, line ends) at either end: what a user typed or pasted around a name,
// a size or a path is not part of it.
inline std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace gs
