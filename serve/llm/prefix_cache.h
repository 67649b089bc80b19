// The KV cache's blocks, with automatic prefix caching as vLLM's: a full block of a shared prompt
// prefix is identified by (prefix id, block index k), since vLLM hashes a full block with every
// token before it, so block k of a prefix is the same block for every request whose prefix
// covers k + 1 whole blocks. A cached block is reference counted: while running sequences hold
// it, it is in use once whatever their number; when the last lets it go it stays cached but
// evictable, in an LRU queue, until a hit takes it back or an allocation evicts it. Allocation
// takes free blocks first, then the least recently released evictable block. Blocks holding no
// prefix are counted, not named: no other request has their tokens.
#pragma once

#include <cstdint>
#include <list>
#include <unordered_map>

namespace tessel::serve::llm {

class PrefixCache {
 public:
  explicit PrefixCache(int64_t blocks) : blocks_(blocks), free_(blocks) {}

  // Blocks an allocation may take: free, and cached but evictable.
  int64_t available() const { return free_ + static_cast<int64_t>(lru_.size()); }
  // Blocks held by sequences (a shared block counted once).
  int64_t inUse() const { return blocks_ - available(); }

  struct Hit {
    int64_t blocks = 0;     // blocks 0..blocks-1 of the prefix are cached
    int64_t evictable = 0;  // of them, held by no sequence (in the LRU queue)
  };
  // The run of cached blocks 0, 1, ... of `prefix` up to the first miss, at most `limit`.
  Hit lookup(int64_t prefix, int64_t limit) const;
  // A reference on each of blocks 0..n-1 of `prefix` (all cached: lookup's run); an evictable
  // one leaves the LRU queue.
  void acquire(int64_t prefix, int64_t n);
  // `n` blocks for a sequence: free ones first, then the least recently released evictable
  // ones, whose prefix blocks are then no longer cached. Requires n <= available().
  void allocate(int64_t n);
  // One block the caller allocated now holds block k of `prefix`, computed in full: cached from
  // here on, with the caller's reference. False when that block is cached already (another
  // sequence computed it too): the caller's copy stays its own.
  bool insert(int64_t prefix, int64_t k);
  // Drops a reference on block k of `prefix`; the last makes it evictable, the most recently
  // released in the LRU queue.
  void release(int64_t prefix, int64_t k);
  // `n` blocks that held no cached prefix, free again.
  void free(int64_t n) { free_ += n; }

 private:
  static uint64_t key(int64_t prefix, int64_t k) {
    return (static_cast<uint64_t>(prefix) << 32) ^ static_cast<uint64_t>(k);
  }
  struct Entry {
    int64_t refs = 0;
    std::list<uint64_t>::iterator lru;  // its place in lru_ while refs == 0
  };

  int64_t blocks_;
  int64_t free_;  // held by nothing and caching nothing
  std::unordered_map<uint64_t, Entry> cached_;
  std::list<uint64_t> lru_;  // evictable blocks, least recently released first
};

}  // namespace tessel::serve::llm
