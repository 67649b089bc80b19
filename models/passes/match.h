// Internal to models/passes: read-only helpers the pattern finders share.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/graph.h"

namespace tessel::models::passes {

class ConstCheck;

// A constant operand as recognize.h defines it: a Weight tensor of one element.
struct Scalar {
  bool is_constant = false;
  std::optional<float> value;  // nullopt when the graph has no values for it
};

class Matcher {
 public:
  explicit Matcher(const Graph& g) : g_(g) {}
  const Graph& graph() const { return g_; }

  // The op producing tensor t if it has this kind (and, for Elementwise, this fn), else nullptr.
  const Op* producer(int t, OpKind kind, std::string_view fn = {}) const;
  // The only op reading tensor t if it has this kind (and fn), else nullptr.
  const Op* soleConsumer(int t, OpKind kind, std::string_view fn = {}) const;
  Scalar scalar(int t) const;
  // A Weight tensor's values, or nullopt (no WeightSource, no values, or an unreadable file:
  // the pass then leaves the pattern alone rather than fail a timing run).
  std::optional<std::vector<float>> values(int t) const;
  bool isWeight(int t) const { return g_.tensor(t).role == TensorRole::Weight; }
  size_t rank(int t) const { return g_.tensor(t).shape.size(); }
  // The leaves of a product tree rooted at Mul op `root`: inner Mul ops whose output only this
  // tree reads are expanded (their ids appended to `ops`, the root's too), so x*(0.5*y) and
  // (x*0.5)*y both give {x, 0.5, y}. Leaves keep repeats (x*x gives {x, x}).
  std::vector<int> productLeaves(const Op& root, std::vector<int>& ops) const;
  // Op is a square of t: Pow(t, 2) or Mul(t, t). The exponent's check goes to `check`.
  bool isSquareOf(const Op& op, int t, ConstCheck& check) const;
  // A mean over the last axis of its input, keeping dims (what x - mean(x) broadcasting needs).
  bool isLastAxisMean(const Op& op) const;

 private:
  const Graph& g_;
};

// The constants of one candidate: a definite mismatch rejects it, a value the graph does not
// carry makes it unverifiable (left alone, with a warning), else it is verified.
class ConstCheck {
 public:
  explicit ConstCheck(const Matcher& m) : m_(m) {}
  // t must be a constant equal to `expected` within a relative 1e-5 (float rounding of the
  // exporter's double constants is ~6e-8).
  void expect(int t, double expected);
  // t must be a constant; returns its value when known.
  std::optional<float> read(int t);
  void fail() { failed_ = true; }
  bool failed() const { return failed_; }
  const std::string& unknown() const { return unknown_; }  // the first unverifiable tensor

 private:
  const Matcher& m_;
  bool failed_ = false;
  std::string unknown_;
};

// One recognized pattern.
struct Match {
  std::string pattern;         // "LayerNorm", ... (for warnings)
  std::vector<int> ops;        // every source op it covers
  std::map<int, Op> replaced;  // the ops emitted in place of some of them; the rest are dropped
  std::string unverified;      // non-empty: a constant whose value is unknown (not applied)
};

// The other input of a two-input op that reads `t`, or -1 when it does not read t.
int otherInput(const Op& op, int t);
// The id of the pattern's last op (in topological order).
int lastOp(const std::vector<int>& ops);
// The pattern op that replaces `ops`: named and placed like its last op, which it succeeds.
Op replacementOp(const Graph& g, const std::vector<int>& ops, OpKind kind, std::vector<int> inputs);

}  // namespace tessel::models::passes
