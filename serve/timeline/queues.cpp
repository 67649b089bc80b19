#include "serve/timeline/queues.h"

#include <algorithm>

namespace tessel::serve::systemc {

RequestPool::RequestPool(int64_t requests, int64_t batch, bool closed_loop, int workers,
                         Statistics& stats)
    : requests_(requests),
      batch_(batch),
      closed_loop_(closed_loop),
      waiting_(static_cast<size_t>(workers)),
      stats_(stats) {}

bool RequestPool::ready() const {
  const int64_t waiting = arrived_ - taken_;
  return waiting >= batch_ || (arrived_ == requests_ && waiting > 0);
}

Batch RequestPool::grab() {
  const Batch b{taken_, std::min(batch_, arrived_ - taken_)};
  taken_ += b.n;
  return b;
}

Batch RequestPool::take(Actor& worker) {
  if (closed_loop_ && taken_ < requests_) {
    const int64_t n = std::min(batch_, requests_ - taken_);
    stats_.arrive(now(), arrived_, n);
    arrived_ += n;
    return grab();
  }
  if (ready()) return grab();
  if (taken_ == requests_) return {};
  waiting_.push(&worker);
  worker.block();
  return worker.batch;
}

void RequestPool::arrive() {
  stats_.arrive(now(), arrived_, 1);
  ++arrived_;
  while (!waiting_.empty() && ready()) {
    Actor* w = waiting_.pop();
    w->batch = grab();
    w->grant();
  }
  if (arrived_ < requests_) return;
  while (!waiting_.empty()) {  // nothing left for them
    Actor* w = waiting_.pop();
    w->batch = {};
    w->grant();
  }
}

HostCpus::HostCpus(int cpus, int workers)
    : own_(cpus == 0), free_(cpus), waiting_(static_cast<size_t>(workers)) {}

void HostCpus::acquire(Actor& worker) {
  if (own_) return;
  if (free_ > 0) {
    --free_;
    return;
  }
  waiting_.push(&worker);
  worker.block();  // release() handed its CPU over
}

void HostCpus::release() {
  if (own_) return;
  if (waiting_.empty()) {
    ++free_;
  } else {
    waiting_.pop()->grant();
  }
}

SubmitQueue::SubmitQueue(int capacity, int workers, int cores, Statistics& stats)
    // It never holds more jobs than there are workers.
    : jobs_(static_cast<size_t>(std::min(capacity, workers))),
      blocked_(static_cast<size_t>(workers)),
      idle_(static_cast<size_t>(cores)),
      stats_(stats) {}

void SubmitQueue::put(Actor& worker, int job) {
  if (!idle_.empty()) {  // the queue is empty: straight to the core that waited longest
    Actor* core = idle_.pop();
    core->job = job;
    core->grant();
    return;
  }
  if (!jobs_.full()) {
    jobs_.push(job);
    stats_.submitDepth(now(), static_cast<int>(jobs_.size()));
    return;
  }
  blocked_.push({&worker, job});
  worker.block();  // take() moved the job in
}

int SubmitQueue::take(Actor& core) {
  if (!jobs_.empty()) {
    const int job = jobs_.pop();
    if (blocked_.empty()) {
      stats_.submitDepth(now(), static_cast<int>(jobs_.size()));
    } else {  // the freed place goes to the worker that blocked first; the depth stays
      const Blocked b = blocked_.pop();
      jobs_.push(b.job);
      b.worker->grant();
    }
    return job;
  }
  if (closed_) return -1;
  idle_.push(&core);
  core.block();
  return core.job;
}

void SubmitQueue::close() {
  closed_ = true;
  while (!idle_.empty()) {
    Actor* core = idle_.pop();
    core->job = -1;
    core->grant();
  }
}

ReceiveQueue::ReceiveQueue(int capacity, int cores)
    : capacity_(capacity), held_(static_cast<size_t>(cores)) {}

void ReceiveQueue::put(Actor& core, Actor& owner) {
  if (count_ < capacity_) {
    ++count_;
    owner.grant();
    return;
  }
  held_.push({&core, &owner});
  core.block();  // remove() passed the freed place on to this result
}

void ReceiveQueue::remove() {
  if (held_.empty()) {
    --count_;
    return;
  }
  const Held h = held_.pop();
  h.owner->grant();
  h.core->grant();
}

}  // namespace tessel::serve::systemc
