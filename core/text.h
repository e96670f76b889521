// Small text helpers shared by the command line, the settings, the diff and the registry.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

// `s` without the white space (spaces, tabs, line ends) at either end: what a user typed or pasted around a name,
// a size or a path is not part of it.
inline std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// `s` as one line of a message that may quote untrusted input (a file name, a capture's text, an argument): each
// byte a terminal could take for a command is written \xNN: control characters (\n and \t as such), C1 controls
// (U+0080-U+009F, which some terminals read as escapes) and every byte of a malformed UTF-8 sequence. Letters
// and signs in UTF-8 ("café", "·") stay as they are.
inline std::string escape_line(std::string_view s) {
  std::string out;
  const auto hex = [&](unsigned char u) {
    static const char kDigits[] = "0123456789abcdef";
    out += "\\x";
    out += kDigits[u >> 4];
    out += kDigits[u & 15];
  };
  for (size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u == '\n') out += "\\n", ++i;
    else if (u == '\t') out += "\\t", ++i;
    else if (u < 0x20 || u == 0x7F) hex(u), ++i;
    else if (u < 0x80) out += char(u), ++i;
    else {
      // A sequence's length from its lead byte, then its continuation bytes; overlong forms, surrogates and code
      // points past U+10FFFF are malformed.
      const size_t n = u >= 0xC2 && u <= 0xDF ? 2 : u >= 0xE0 && u <= 0xEF ? 3 : u >= 0xF0 && u <= 0xF4 ? 4 : 0;
      uint32_t cp = n == 2 ? u & 0x1F : n == 3 ? u & 0x0F : u & 0x07;
      bool ok = n > 0 && i + n <= s.size();
      for (size_t j = 1; ok && j < n; ++j) {
        const auto c = static_cast<unsigned char>(s[i + j]);
        ok = (c & 0xC0) == 0x80;
        cp = cp << 6 | (c & 0x3F);
      }
      ok = ok && !(n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) && !(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
           cp >= 0xA0;
      if (ok) out.append(s.substr(i, n)), i += n;
      else hex(u), ++i;  // this byte alone: the next may start a good sequence
    }
  }
  return out;
}

// `s` cut to at most `max` bytes at its end ("..." after) or its start ("..." before), never inside a UTF-8
// character: a byte cut from its lead could stand alone as a C1 control (0x9B is CSI), which escape_line removed.
inline std::string cut_end(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // s[n] is the first byte left out
  return s.substr(0, n) + "...";
}
inline std::string cut_start(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t from = s.size() - max;
  while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xC0) == 0x80) ++from;
  return "..." + s.substr(from);
}

// Names as a sentence lists them: "a", "a or b", "a, b or c" (`last` "and": "a, b and c").
inline std::string join_list(const std::vector<std::string>& names, const char* last = "or") {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? std::string(" ") + last + " " : std::string(", ")) + names[i];
  return out;
}

}  // namespace gs
