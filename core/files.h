// Whole-file I/O. Nothing is written in place: a reader never sees half a file.
#pragma once

#include <string>

namespace gs {

// Throws std::runtime_error("PATH: reason") when the file cannot be read.
std::string read_file(const std::string& path);

// Writes `bytes` to a temporary file in the same folder, flushes it and renames it over `path`.
// Throws std::runtime_error("PATH: reason") and leaves no temporary behind on failure.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace gs
