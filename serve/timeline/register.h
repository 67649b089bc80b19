// Makes the SystemC timeline the one serve::timeline() returns. Called by executables that link
// tessel_serve_timeline (they define sc_main: libsystemc owns main).
#pragma once

namespace tessel::serve::systemc {

void registerTimeline();

}  // namespace tessel::serve::systemc
