// The pipe between the window and its GPU worker process: length-prefixed messages, each a 4-letter type
// ("snap", "capt", "busy", ...) and a 32-bit little-endian body length, then the body (JSON text). Bodies are
// bounded on both sides, so a damaged or hostile peer costs at most one body's worth of memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "app/live.h"

namespace gs::wire {

// A capture with every rung's traced launch is about 20 MB (the bundled one); the limit leaves room for more
// and still bounds what one message may cost.
inline constexpr uint32_t kMaxFromWorker = 128u << 20;
// Requests are a kernel name or a shape; the start request lists names (a few KB).
inline constexpr uint32_t kMaxToWorker = 1u << 20;

struct Message {
  std::string type;  // four lower-case letters
  std::string body;
};

// One message as bytes on the pipe.
std::string frame(const std::string& type, const std::string& body);

// Writes all of `bytes` to a blocking descriptor, retrying after EINTR. False when the other side is gone
// (EPIPE: SIGPIPE must be ignored) or on any other error.
bool write_all(int fd, const std::string& bytes);

// Cuts messages out of a byte stream, whatever the chunks it arrives in.
class Reader {
 public:
  explicit Reader(uint32_t max_body) : max_body_(max_body) {}
  // Adds bytes. False, with *error in one line, on a header that is not a message (bad type, a body over the
  // limit): the stream cannot be trusted after that.
  bool feed(const char* data, size_t n, std::string* error);
  // The next complete message, oldest first.
  bool next(Message* m);
  size_t buffered() const { return buf_.size(); }

 private:
  uint32_t max_body_;
  std::string buf_;
  std::deque<Message> ready_;
};

// Blocks until one message arrives on `fd`. False at end of stream or on an error (*error says which; empty
// at a clean end).
bool read_message(int fd, Reader* reader, Message* m, std::string* error);

// What changed in the worker's snapshot since its last "snap" message (the capture travels apart, as "capt",
// when it changed: the capture JSON of core/capture.h).
struct StateUpdate {
  std::string status, error, series_kernel;
  DeviceState device;
  std::vector<LivePoint> points;                // the live series' new points
  std::vector<LiveSnapshot::Switch> switches;   // and its new switches
};
std::string encode_state(const StateUpdate& u);
// False, with *error in one line, when the body is not a state message. Strings are cut to kMaxText.
bool decode_state(const std::string& body, StateUpdate* out, std::string* error);
inline constexpr size_t kMaxText = 1000;

}  // namespace gs::wire
