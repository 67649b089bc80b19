#include "serve/timeline/depth_sampler.h"

namespace tessel::serve::systemc {

void DepthSampler::coarsen() {
  for (size_t k = 0; 2 * k < points_.size(); ++k) points_[k] = points_[2 * k];
  points_.resize((points_.size() + 1) / 2);
  step_ *= 2;
  next_ = static_cast<Ticks>(points_.size()) * step_;
}

void DepthSampler::advance(Ticks t, int submit, int in_system) {
  if (t <= next_) return;
  // Instants next_, next_ + step_, ... below t: ceil((t - 0) / step_) of them in all.
  while ((t + step_ - 1) / step_ > static_cast<Ticks>(kMaxSamples)) coarsen();
  for (; next_ < t; next_ += step_) points_.push_back({submit, in_system});
}

std::vector<DepthSample> DepthSampler::finish(Ticks end, int submit, int in_system,
                                              double tick_seconds) {
  advance(end + 1, submit, in_system);
  std::vector<DepthSample> out;
  out.reserve(points_.size());
  for (size_t k = 0; k < points_.size(); ++k) {
    out.push_back({static_cast<double>(k) * static_cast<double>(step_) * tick_seconds,
                   points_[k].submit, points_[k].in_system});
  }
  return out;
}

}  // namespace tessel::serve::systemc
