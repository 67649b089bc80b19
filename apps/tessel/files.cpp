#include <cstdio>
#include <fstream>

#include "apps/tessel/commands.h"
#include "util/error.h"

namespace tessel::app {

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
    f << text;
    if (!f.flush()) throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw ConfigError({path, 0, 0, ""}, "cannot write this file (does its directory exist?)");
  }
}

}  // namespace tessel::app
