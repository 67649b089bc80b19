// A vector with its elements inline (no heap): the mapper copies millions of mappings, and a
// mapping's levels and loop orders are short.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <vector>

namespace tessel::dataflows::nest {

template <class T, size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> v) { assign(v.begin(), v.end()); }
  SmallVector(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit on purpose

  void push_back(const T& x) {
    if (n_ == N) throw std::length_error("SmallVector capacity exceeded");
    data_[n_++] = x;
  }
  void clear() { n_ = 0; }
  void resize(size_t n) {
    if (n > N) throw std::length_error("SmallVector capacity exceeded");
    for (size_t i = n_; i < n; ++i) data_[i] = T{};
    n_ = n;
  }
  size_t size() const { return n_; }
  static constexpr size_t capacity() { return N; }
  bool empty() const { return n_ == 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[n_ - 1]; }
  const T& back() const { return data_[n_ - 1]; }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + n_; }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + n_; }
  bool operator==(const SmallVector& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }
  bool operator!=(const SmallVector& o) const { return !(*this == o); }

 private:
  template <class It>
  void assign(It first, It last) {
    n_ = 0;
    for (; first != last; ++first) push_back(*first);
  }
  std::array<T, N> data_{};
  size_t n_ = 0;
};

}  // namespace tessel::dataflows::nest
