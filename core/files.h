// Whole-file I/O. Nothing is written in place: a reader never sees half a file.
#pragma once

#include <cstdint>
#include <string>

namespace gs {

// The most a reader takes in: a capture is a few MB; anything near this is damaged or not a capture.
inline constexpr uint64_t kMaxReadBytes = 256ull << 20;

// The whole of a regular file of at most `max_bytes`. Throws std::runtime_error("PATH: reason") when the file
// cannot be read, is not a regular file (a FIFO, /dev/zero, a folder: refused at once, never waited on) or is
// larger.
std::string read_file(const std::string& path, uint64_t max_bytes = kMaxReadBytes);

// Writes `bytes` to a temporary file in the same folder (an unpredictable name, created exclusively), flushes
// it and renames it over `path`. Throws std::runtime_error("PATH: reason") and leaves no temporary behind on
// failure or when interrupted by SIGINT, SIGTERM or SIGHUP.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace gs
