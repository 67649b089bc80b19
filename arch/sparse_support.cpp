#include "arch/sparse_support.h"

namespace tessel::arch {

namespace {

constexpr std::array<std::string_view, 6> kFormatNames = {
    "none", "bitmask", "coordinates", "csr", "run_length", "nm_indices"};

}  // namespace

std::string_view nameOf(SparseFormat f) { return kFormatNames.at(static_cast<size_t>(f)); }

const std::vector<std::string>& sparseFormatNames() {
  static const std::vector<std::string> names(kFormatNames.begin(), kFormatNames.end());
  return names;
}

SparseFormat sparseFormatFrom(std::string_view name) {
  for (size_t i = 0; i < kFormatNames.size(); ++i) {
    if (kFormatNames[i] == name) return static_cast<SparseFormat>(i);
  }
  return SparseFormat::None;
}

const SparseSupport::Pattern* SparseSupport::acceleratedAs(const Sparsity& s, int operand) const {
  if (!s.structured() || operand != structured_operand) return nullptr;
  const Pattern* best = nullptr;
  for (const Pattern& p : structured) {
    const bool fits = p.m % s.m == 0 && s.n * (p.m / s.m) <= p.n;
    if (fits && (!best || p.n * best->m < best->n * p.m)) best = &p;
  }
  return best;
}

SparseFormat SparseSupport::formatAt(size_t level, int operand) const {
  if (level >= formats.size() || operand < 0 || operand > 1) return SparseFormat::None;
  return formats[level][static_cast<size_t>(operand)];
}

namespace {

int leaderAt(const std::vector<std::array<int8_t, 2>>& v, size_t level, int operand) {
  if (level >= v.size() || operand < 0 || operand > 1) return -1;
  return v[level][static_cast<size_t>(operand)];
}

bool anyLeader(const std::vector<std::array<int8_t, 2>>& v) {
  for (const auto& l : v) {
    if (l[0] >= 0 || l[1] >= 0) return true;
  }
  return false;
}

}  // namespace

int SparseSupport::skipReadsAt(size_t level, int operand) const {
  return leaderAt(skip_reads, level, operand);
}

int SparseSupport::gateReadsAt(size_t level, int operand) const {
  return leaderAt(gate_reads, level, operand);
}

bool SparseSupport::dense() const {
  if (!structured.empty() || skip[0] || skip[1] || gate[0] || gate[1]) return false;
  for (const auto& f : formats) {
    if (f[0] != SparseFormat::None || f[1] != SparseFormat::None) return false;
  }
  if (pe_formats[0] != SparseFormat::None || pe_formats[1] != SparseFormat::None) return false;
  return !anyLeader(skip_reads) && !anyLeader(gate_reads);
}

}  // namespace tessel::arch
