// The controller's bookkeeping, as plain C++: commands enter their queue's reservation station in
// program order (dispatch stops while the next command's queue is full, as a core stalls on a
// full command queue); within a queue they issue in order once every dependency has finished;
// each holds its entry until it finishes. The SystemC controller drives it from events.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/systemc/lower/command.h"

namespace tessel::sim::systemc {

class IssueLogic {
 public:
  IssueLogic() = default;
  IssueLogic(const CommandStream* stream, std::array<int, kNumQueues> entries);
  // Starts over on another stream, keeping the buffers.
  void reset(const CommandStream* stream, std::array<int, kNumQueues> entries);

  // Dispatches what fits; records, for a command that waited, the queue that was full.
  void dispatch(double now);
  // The oldest unissued command of q when its dependencies have all finished, else kNone.
  uint32_t ready(Queue q) const;
  void issued(uint32_t c, double now);
  // A compute has read its operands (its stream is done) though its results are still on their
  // way out: a load waiting for that buffer half may go. Everything else waits for finished.
  void released(uint32_t c, double now);
  void finished(uint32_t c, double now);
  bool done() const { return finished_count_ == stream_->commands.size(); }

  struct Record {
    double dispatched = -1;  // entered its reservation station
    double ready = 0;        // its last dependency finished
    double issued = -1;
    double released = -1;
    double finished = -1;
    uint32_t last_dep = kNone;  // the dependency that finished last
    int8_t blocked_by = -1;     // the queue whose full station delayed its dispatch, -1 if none
  };
  const Record& record(uint32_t c) const { return records_[c]; }
  size_t size() const { return records_.size(); }

 private:
  const CommandStream* stream_ = nullptr;
  std::array<int, kNumQueues> entries_{};
  std::array<std::deque<uint32_t>, kNumQueues> station_;  // dispatched, not finished, in order
  std::array<size_t, kNumQueues> occupied_{};
  std::vector<Record> records_;
  std::vector<uint8_t> state_;  // 0 waiting, 1 dispatched, 2 issued, 3 finished
  bool satisfied(uint32_t dep, const Command& waiter) const;
  double satisfiedAt(uint32_t dep, const Command& waiter) const;
  uint32_t next_ = 0;
  size_t finished_count_ = 0;
  int8_t blocked_ = -1;  // the queue blocking dispatch right now
};

}  // namespace tessel::sim::systemc
