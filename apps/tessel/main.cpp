// tessel's entry point: the command line (cli.h), then a check that standard output really
// received what was printed. libsystemc owns `main` and calls sc_main; this binary links the
// SystemC engine, so its entry point is sc_main.
#include <poll.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "apps/tessel/cli.h"
#include "serve/timeline/register.h"
#include "sim/systemc/systemc_engine.h"

namespace {
// SystemC prints its banner before sc_main runs unless this is set: set it before main does.
const bool kQuietSystemc = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  (void)kQuietSystemc;
  tessel::sim::systemc::registerEngine();
  tessel::serve::systemc::registerTimeline();
  // A closed pipe (`tessel run ... | head -1`) becomes a write error, not a kill: reports asked
  // for with --json/--csv are still written, and the failure is reported below.
  std::signal(SIGPIPE, SIG_IGN);
  int code = tessel::app::runCli(argc, argv, std::cout, std::cerr);
  errno = 0;
  if (!std::cout.flush() || std::cout.bad()) {
    int err = errno;
    // The failed write may be long past (errno since reused): a pipe whose reader has gone
    // reports an error condition on poll.
    pollfd p{1, POLLOUT, 0};
    if (err == 0 && ::poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) err = EPIPE;
    std::cerr << "error: standard output: " << (err != 0 ? std::strerror(err) : "write failed")
              << "\n";
    if (code == 0) code = 2;
  }
  return code;
}
