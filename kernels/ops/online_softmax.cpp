// The online softmax of FlashAttention (kernels/ops/flash_attention.h): running max, running sum
// and the rescaled partial output of one block of query rows.
#include <algorithm>
#include <limits>
#include <string>

#include "kernels/numeric/portable_math.h"
#include "kernels/ops/flash_attention.h"
#include "kernels/ops/flash_tiles.h"
#include "util/error.h"

namespace tessel::kernels {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// e^(x - m) for x <= m in FP32, from the portable double exp (the same bits on every CPU).
float expBelow(float x, float m) {
  return x == kNegInf ? 0.0f : static_cast<float>(portable::exp(static_cast<double>(x - m)));
}

}  // namespace

OnlineSoftmax::OnlineSoftmax(int64_t rows, int64_t dv)
    : rows_(rows),
      dv_(dv),
      m_(static_cast<size_t>(rows), kNegInf),
      l_(static_cast<size_t>(rows), 0.0f),
      o_(static_cast<size_t>(rows * dv), 0.0f) {
  if (rows < 0 || dv < 0) throw Error("OnlineSoftmax: negative size");
}

void OnlineSoftmax::reset(int64_t rows) {
  if (rows < 0 || rows * dv_ > static_cast<int64_t>(o_.size()))
    throw Error("OnlineSoftmax: " + std::to_string(rows) + " rows exceed the state's capacity");
  rows_ = rows;
  std::fill(m_.begin(), m_.begin() + rows, kNegInf);
  std::fill(l_.begin(), l_.begin() + rows, 0.0f);
  std::fill(o_.begin(), o_.begin() + rows * dv_, 0.0f);
}

void OnlineSoftmax::absorb(float* s, int64_t cols, int64_t ld) {
  for (int64_t r = 0; r < rows_; ++r) {
    float* x = s + r * ld;
    const float m_old = m_[static_cast<size_t>(r)];
    float m_new = m_old;
    for (int64_t c = 0; c < cols; ++c) m_new = x[c] > m_new ? x[c] : m_new;
    if (m_new == kNegInf) {  // every key so far masked: nothing to add
      std::fill(x, x + cols, 0.0f);
      continue;
    }
    float block_sum = 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
      x[c] = expBelow(x[c], m_new);
      block_sum += x[c];
    }
    // exp(m_old - m_new): 0 before the first visible key (O and l are 0 then), 1 when the max
    // stays, so a row whose max does not move is not touched.
    const float alpha = expBelow(m_old, m_new);
    float& l = l_[static_cast<size_t>(r)];
    l = l * alpha + block_sum;
    if (alpha != 1.0f) {
      float* o = o_.data() + r * dv_;
      for (int64_t j = 0; j < dv_; ++j) o[j] *= alpha;
    }
    m_[static_cast<size_t>(r)] = m_new;
  }
}

void OnlineSoftmax::finish(float* out, int64_t ld) const {
  for (int64_t r = 0; r < rows_; ++r) {
    const float l = l_[static_cast<size_t>(r)];
    const float* o = o_.data() + r * dv_;
    for (int64_t j = 0; j < dv_; ++j) out[r * ld + j] = l > 0.0f ? o[j] / l : 0.0f;
  }
}

void flashStep(OnlineSoftmax& st, float* s, int64_t cols, int64_t ld, const float* v, int64_t ldv) {
  st.absorb(s, cols, ld);
  detail::addProduct(s, ld, v, ldv, st.output(), st.dv(), st.rows(), st.dv(), cols);
}

}  // namespace tessel::kernels
