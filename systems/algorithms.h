// The registry of collective algorithms: a name, which collectives and networks it serves, and
// the steps it takes (systems/algorithms.cpp). One entry per algorithm; collective.cpp picks.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "systems/collective.h"
#include "systems/steps.h"

namespace tessel::systems {

struct Algorithm {
  std::string name;
  std::function<bool(Collective, const Network&)> applies;
  std::function<void(Collective, double bytes, const Network&, StepCoster&, CollectiveCost&)> build;
};

const std::vector<Algorithm>& algorithms();

}  // namespace tessel::systems
