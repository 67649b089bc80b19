// The timeline the CLI reaches through serve::timeline(): registered by executables that link
// the SystemC one. Plain C++, so tessel_cli links it without SystemC.
#include "serve/timeline.h"
#include "util/error.h"

namespace tessel::serve {

namespace {

TimelineFn& registered() {
  static TimelineFn fn;
  return fn;
}

}  // namespace

void registerTimeline(TimelineFn fn) { registered() = std::move(fn); }

const TimelineFn& timeline() {
  if (!registered()) {
    throw ConfigError({},
                      "this binary has no deployment timeline: the serve simulation needs "
                      "the SystemC timeline (tessel_serve_timeline) linked and registered");
  }
  return registered();
}

}  // namespace tessel::serve
