#include "serve/llm/prefix_cache.h"

#include "util/error.h"

namespace tessel::serve::llm {

PrefixCache::Hit PrefixCache::lookup(int64_t prefix, int64_t limit) const {
  Hit hit;
  for (; hit.blocks < limit; ++hit.blocks) {
    const auto it = cached_.find(key(prefix, hit.blocks));
    if (it == cached_.end()) break;
    if (it->second.refs == 0) ++hit.evictable;
  }
  return hit;
}

void PrefixCache::acquire(int64_t prefix, int64_t n) {
  for (int64_t k = 0; k < n; ++k) {
    Entry& e = cached_.at(key(prefix, k));
    if (e.refs++ == 0) lru_.erase(e.lru);
  }
}

void PrefixCache::allocate(int64_t n) {
  if (n > available()) throw Error("prefix cache: allocating more blocks than are available");
  const int64_t from_free = n < free_ ? n : free_;
  free_ -= from_free;
  for (int64_t i = from_free; i < n; ++i) {
    cached_.erase(lru_.front());
    lru_.pop_front();
  }
}

bool PrefixCache::insert(int64_t prefix, int64_t k) {
  return cached_.emplace(key(prefix, k), Entry{1, lru_.end()}).second;
}

void PrefixCache::release(int64_t prefix, int64_t k) {
  Entry& e = cached_.at(key(prefix, k));
  if (--e.refs == 0) e.lru = lru_.insert(lru_.end(), key(prefix, k));
}

}  // namespace tessel::serve::llm
