#include <cstdio>
#include <fstream>

#include "apps/tessel/commands.h"
#include "util/error.h"

namespace tessel::app {

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw Error("cannot write '" + path + "'");
    f << text;
    if (!f.flush()) throw Error("cannot write '" + path + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error("cannot write '" + path + "'");
  }
}

}  // namespace tessel::app
