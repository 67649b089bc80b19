// A FIFO with a capacity fixed up front: one allocation, none per push. Plain C++.
#pragma once

#include <cstddef>
#include <vector>

namespace tessel::serve::systemc {

template <typename T>
class Ring {
 public:
  explicit Ring(size_t capacity) : slots_(capacity) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  bool full() const { return size_ == slots_.size(); }

  // The caller checks !full() first.
  void push(T value) {
    slots_[(head_ + size_) % slots_.size()] = value;
    ++size_;
  }
  // The caller checks !empty() first.
  T pop() {
    T value = slots_[head_];
    head_ = (head_ + 1) % slots_.size();
    --size_;
    return value;
  }

 private:
  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace tessel::serve::systemc
