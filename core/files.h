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

// Whether `bytes` begin as a gzip stream does (RFC 1952's two magic bytes).
bool is_gzip(const std::string& bytes);

// The gzip stream `bytes` (one member or several, as `cat a.gz b.gz` makes), inflated, at most `max_bytes` of
// it: inflation stops there, so a small file that would inflate to gigabytes costs no more than `max_bytes`.
// Throws std::runtime_error("reason") (the caller names the file) when the stream is damaged, cut short,
// followed by other data or larger.
std::string gunzip(const std::string& bytes, uint64_t max_bytes);

// `bytes` as one gzip member (zlib's best compression), for files named *.gz.
std::string gzip(const std::string& bytes);

// Writes `bytes` to a temporary file in the same folder (an unpredictable name, created exclusively), flushes
// it and renames it over `path`. A symbolic link is written through (its target replaced, the link kept, the
// target's mode kept); a path that holds something other than a regular file (a device, a FIFO, a folder) or a
// file not writable is refused and left as it was. Throws std::runtime_error("PATH: reason") and leaves no temporary behind on
// failure or when SIGINT, SIGTERM or SIGHUP ends the process. A signal the program ignores or handles itself is
// left to it (the handler must let the write finish, then remove what it no longer wants).
void write_file_atomic(const std::string& path, const std::string& bytes);

// Throws what write_file_atomic(path, ...) would for what is already there (not a regular file, not writable,
// no such folder), so that a command can refuse before its work rather than after it.
void check_writable(const std::string& path);

// For a command-line program: from now on SIGINT, SIGTERM and SIGHUP (those not ignored) print one line on stderr,
// "WHO: interrupted (SIGINT)", with " while writing PATH: left as it was, no temporary behind" during a
// write_file_atomic, and end the process by that signal (its temporary removed).
void say_when_interrupted(const std::string& who);

}  // namespace gs
