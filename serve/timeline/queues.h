// The places the timeline's threads wait: the arrival queue, the host CPUs, the submit and
// receive queues. Each hands what it guards straight to the first waiter (FIFO), so a woken
// thread never finds it taken and no thread is woken for nothing.
#pragma once

#include <systemc>

#include "serve/timeline/ring.h"
#include "serve/timeline/statistics.h"

namespace tessel::serve::systemc {

// The current simulation time.
inline Ticks now() { return static_cast<Ticks>(sc_core::sc_time_stamp().value()); }

// Requests [first, first + n); n == 0 means none are left.
struct Batch {
  int64_t first = 0;
  int64_t n = 0;
};

// A thread that waits for one thing at a time; whoever hands it that thing grants it.
struct Actor {
  sc_core::sc_event wake;
  int grants = 0;  // granted and not yet taken: a grant before block() is not lost
  Batch batch;     // a waiting worker: the requests it was handed
  int job = -1;    // a waiting core: the worker whose job it was handed (-1: none will come)

  void block() {
    while (grants == 0) sc_core::wait(wake);
    --grants;
  }
  void grant() {
    ++grants;
    wake.notify();
  }
};

// The arrival queue. Closed loop: requests arrive as workers take them. Open loop: the source
// calls arrive(); a worker waits for a full batch, or for what is left once all have arrived.
class RequestPool {
 public:
  RequestPool(int64_t requests, int64_t batch, bool closed_loop, int workers, Statistics& stats);
  Batch take(Actor& worker);
  void arrive();

 private:
  bool ready() const;
  Batch grab();

  int64_t requests_, batch_;
  bool closed_loop_;
  int64_t arrived_ = 0, taken_ = 0;
  Ring<Actor*> waiting_;
  Statistics& stats_;
};

// Counting semaphore over the shared host CPUs; with 0 CPUs each worker has its own.
class HostCpus {
 public:
  HostCpus(int cpus, int workers);
  void acquire(Actor& worker);
  void release();

 private:
  bool own_;
  int free_;
  Ring<Actor*> waiting_;
};

// Jobs (named by their worker) waiting for a core, in order; workers block while it is full.
class SubmitQueue {
 public:
  SubmitQueue(int capacity, int workers, int cores, Statistics& stats);
  void put(Actor& worker, int job);
  // The next job; -1 once closed and empty.
  int take(Actor& core);
  // No more jobs will come: idle cores stop.
  void close();

 private:
  struct Blocked {
    Actor* worker;
    int job;
  };
  Ring<int> jobs_;
  Ring<Blocked> blocked_;
  Ring<Actor*> idle_;
  bool closed_ = false;
  Statistics& stats_;
};

// Finished jobs not yet collected; a core whose result cannot enter is held until one leaves.
class ReceiveQueue {
 public:
  ReceiveQueue(int capacity, int cores);
  // The result of `owner`'s job enters (or `core` is held until it can); `owner` is granted.
  void put(Actor& core, Actor& owner);
  // A worker takes its result out.
  void remove();

 private:
  struct Held {
    Actor* core;
    Actor* owner;
  };
  int capacity_, count_ = 0;
  Ring<Held> held_;
};

}  // namespace tessel::serve::systemc
