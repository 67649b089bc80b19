#include "sim/systemc/pe_grid/schedule.h"

#include <stdexcept>
#include <string>

#include "dataflows/nest/tile_timing.h"

namespace tessel::sim::pe_grid {

namespace nest = tessel::dataflows::nest;

namespace {
int ceilDiv(int a, int b) { return (a + b - 1) / b; }
}  // namespace

Schedule::Schedule(const GridConfig& config, GemmShape shape, const int8_t* a, const int8_t* b)
    : cfg_(config), s_(shape), a_(a), b_(b), ws_(config.dataflow == Dataflow::WeightStationary) {
  if (cfg_.rows < 1 || cfg_.cols < 1 || cfg_.rows > 255 || cfg_.cols > 255) {
    throw std::invalid_argument("pe_grid: rows and cols must be in 1..255, got " +
                                std::to_string(cfg_.rows) + "x" + std::to_string(cfg_.cols));
  }
  if (s_.m < 1 || s_.k < 1 || s_.n < 1) throw std::invalid_argument("pe_grid: empty GEMM");
  const int64_t r = cfg_.rows;
  if (ws_) {
    tiles_ = ceilDiv(s_.n, cfg_.cols) * kTiles();
    period_ = nest::wsIssuePeriod(r, s_.m, cfg_.double_buffered);
    per_tile_ = s_.m;
  } else {
    tiles_ = ceilDiv(s_.m, cfg_.rows) * nTiles();
    period_ = nest::osIssuePeriod(r, s_.k);
    per_tile_ = r;
  }
  period_ += cfg_.period_adjust;
  if (period_ < 1) throw std::invalid_argument("pe_grid: issue period below 1");
}

int Schedule::kTiles() const { return ceilDiv(s_.k, cfg_.rows); }
int Schedule::nTiles() const { return ceilDiv(s_.n, cfg_.cols); }

int64_t Schedule::expectedCycles() const {
  if (ws_) return nest::wsSequenceCycles(cfg_.rows, cfg_.cols, s_.m, tiles_, cfg_.double_buffered);
  return nest::osSequenceCycles(cfg_.rows, cfg_.cols, s_.k, tiles_);
}

// WS: tile t preloads from edge P = t*period (column c skewed by c, bottom row first) and
// streams A row i into array row r on edge P + R + i + r. OS: tile t streams k into row r and
// column c on edges t*period + k + r and t*period + k + c.
OperandReg Schedule::left(int64_t e, int r) const {
  const int64_t x = e - r - (ws_ ? cfg_.rows : 0);
  if (x < 0) return {};
  const int t = int(x / period_);
  const int64_t step = x % period_;
  if (t >= tiles_) return {};
  OperandReg out;
  out.valid = true;
  if (ws_) {
    if (step >= s_.m) return {};
    const int k = (t % kTiles()) * cfg_.rows + r;
    out.value = k < s_.k ? a_[step * s_.k + k] : 0;
    out.tag = cfg_.double_buffered && (t & 1);
  } else {
    if (step >= s_.k) return {};
    const int m = (t / nTiles()) * cfg_.rows + r;
    out.value = m < s_.m ? a_[int64_t(m) * s_.k + step] : 0;
    out.tag = step == s_.k - 1;
  }
  return out;
}

OperandReg Schedule::top(int64_t e, int c) const {
  const int64_t y = e - c;
  if (y < 0) return {};
  const int t = int(y / period_);
  const int64_t step = y % period_;
  if (t >= tiles_) return {};
  OperandReg out;
  out.valid = true;
  if (ws_) {
    if (step >= cfg_.rows) return {};
    const int row = cfg_.rows - 1 - int(step);
    const int k = (t % kTiles()) * cfg_.rows + row;
    const int n = (t / kTiles()) * cfg_.cols + c;
    out.value = k < s_.k && n < s_.n ? b_[int64_t(k) * s_.n + n] : 0;
    out.tag = cfg_.double_buffered && (t & 1);
    out.row = uint8_t(row);
  } else {
    if (step >= s_.k) return {};
    const int n = (t % nTiles()) * cfg_.cols + c;
    out.value = n < s_.n ? b_[step * s_.n + n] : 0;
  }
  return out;
}

void Schedule::collect(int c, int64_t j, int32_t value, std::vector<int32_t>& out) const {
  const int t = tileOfOutput(j);
  const int64_t i = j % per_tile_;
  if (ws_) {
    const int n = (t / kTiles()) * cfg_.cols + c;
    if (n < s_.n) out[size_t(i * s_.n + n)] += value;
    return;
  }
  const int64_t m = int64_t(t / nTiles()) * cfg_.rows + (cfg_.rows - 1 - i);
  const int n = (t % nTiles()) * cfg_.cols + c;
  if (m < s_.m && n < s_.n) out[size_t(m * s_.n + n)] = value;
}

}  // namespace tessel::sim::pe_grid
