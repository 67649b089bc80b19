#include "sim/systemc/lower/command.h"

namespace tessel::sim::systemc {

std::string_view nameOf(Queue q) {
  switch (q) {
    case Queue::Load:
      return "load";
    case Queue::Execute:
      return "execute";
    case Queue::Store:
      return "store";
    case Queue::Vector:
      return "vector";
  }
  return "?";
}

std::string_view nameOf(Kind k) {
  switch (k) {
    case Kind::Load:
      return "load";
    case Kind::Store:
      return "store";
    case Kind::Compute:
      return "compute";
    case Kind::Sfu:
      return "sfu";
    case Kind::Host:
      return "host";
  }
  return "?";
}

void CommandStream::dependOn(uint32_t dep) {
  if (dep == kNone || commands.empty()) return;
  Command& c = commands.back();
  for (uint32_t i = c.dep_begin; i < c.dep_end; ++i) {
    if (deps[i] == dep) return;
  }
  if (c.dep_end == c.dep_begin) c.dep_begin = c.dep_end = static_cast<uint32_t>(deps.size());
  deps.push_back(dep);
  c.dep_end = static_cast<uint32_t>(deps.size());
}

void CommandStream::access(uint8_t level, uint8_t tensor, bool write, int64_t bytes) {
  if (bytes == 0 || commands.empty()) return;
  Command& c = commands.back();
  if (c.access_end == c.access_begin) {
    c.access_begin = c.access_end = static_cast<uint32_t>(accesses.size());
  }
  accesses.push_back(Access{level, tensor, write, bytes});
  c.access_end = static_cast<uint32_t>(accesses.size());
}

int64_t CommandStream::bytesAt(size_t level, int tensor, bool write) const {
  int64_t n = 0;
  for (const Access& a : accesses) {
    if (a.level == level && a.tensor == tensor && a.write == write) n += a.bytes;
  }
  return n;
}

}  // namespace tessel::sim::systemc
