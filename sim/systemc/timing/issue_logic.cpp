#include "sim/systemc/timing/issue_logic.h"

#include <algorithm>

namespace tessel::sim::systemc {

IssueLogic::IssueLogic(const CommandStream* stream, std::array<int, kNumQueues> entries) {
  reset(stream, entries);
}

void IssueLogic::reset(const CommandStream* stream, std::array<int, kNumQueues> entries) {
  stream_ = stream;
  entries_ = entries;
  for (int& e : entries_) e = std::max(1, e);
  records_.assign(stream->commands.size(), Record{});
  state_.assign(stream->commands.size(), 0);
  for (auto& q : station_) q.clear();
  occupied_ = {};
  next_ = 0;
  finished_count_ = 0;
  blocked_ = -1;
}

void IssueLogic::dispatch(double now) {
  while (next_ < stream_->commands.size()) {
    const auto q = static_cast<size_t>(stream_->commands[next_].queue);
    if (occupied_[q] >= static_cast<size_t>(entries_[q])) {
      blocked_ = static_cast<int8_t>(q);
      return;
    }
    Record& r = records_[next_];
    r.dispatched = now;
    r.blocked_by = blocked_;
    blocked_ = -1;
    station_[q].push_back(next_);
    ++occupied_[q];
    state_[next_] = 1;
    ++next_;
  }
}

bool IssueLogic::satisfied(uint32_t dep, const Command& waiter) const {
  return state_[dep] == 3 || (waiter.kind == Kind::Load && records_[dep].released >= 0);
}

double IssueLogic::satisfiedAt(uint32_t dep, const Command& waiter) const {
  const Record& r = records_[dep];
  return waiter.kind == Kind::Load && r.released >= 0 ? r.released : r.finished;
}

uint32_t IssueLogic::ready(Queue q) const {
  for (uint32_t c : station_[static_cast<size_t>(q)]) {
    if (state_[c] != 1) continue;  // issued, waiting to finish
    const Command& cmd = stream_->commands[c];
    for (uint32_t i = cmd.dep_begin; i < cmd.dep_end; ++i) {
      if (!satisfied(stream_->deps[i], cmd)) return kNone;
    }
    return c;  // the oldest unissued one: in-order issue
  }
  return kNone;
}

void IssueLogic::issued(uint32_t c, double now) {
  state_[c] = 2;
  Record& r = records_[c];
  r.issued = now;
  const Command& cmd = stream_->commands[c];
  r.ready = r.dispatched;
  for (uint32_t i = cmd.dep_begin; i < cmd.dep_end; ++i) {
    const uint32_t d = stream_->deps[i];
    const double at = satisfiedAt(d, cmd);
    if (at >= r.ready) {
      r.ready = at;
      r.last_dep = d;
    }
  }
}

void IssueLogic::released(uint32_t c, double now) { records_[c].released = now; }

void IssueLogic::finished(uint32_t c, double now) {
  state_[c] = 3;
  records_[c].finished = now;
  ++finished_count_;
  const auto q = static_cast<size_t>(stream_->commands[c].queue);
  --occupied_[q];
  auto& st = station_[q];
  st.erase(std::find(st.begin(), st.end(), c));
}

}  // namespace tessel::sim::systemc
