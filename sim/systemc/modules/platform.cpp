// The top of the SystemC model: the blocks and the controller that issues commands to them.
#include <cstdlib>
#include <memory>

#include "sim/systemc/modules/blocks.h"
#include "sim/systemc/modules/fabric.h"
#include "util/error.h"

namespace tessel::sim::systemc {

namespace {


class Platform : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Platform);
  explicit Platform(sc_core::sc_module_name name)
      : sc_module(name),
        sram("sram"),
        noc("noc"),
        dma("dma", done(), sram),
        array("array", done(), sram, noc),
        sfu("sfu", done(), &BlockModels::sfu, sram),
        host("host", done(), &BlockModels::host, sram) {
    SC_METHOD(step);
    sensitive << wake_;
    dont_initialize();
  }

  void run(const CommandStream& stream, BlockModels& models, OpRun& r) {
    r.begin = r.end = nowCycles();
    r.timing.assign(stream.commands.size(), CommandTiming{});
    r.logic.reset(&stream, models.entries);
    stream_ = &stream;
    models_ = &models;
    models.array_primed = false;
    run_ = &r;
    wake_.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();  // until no event is left: the stream has drained
    run_ = nullptr;
    if (!r.logic.done()) {
      throw Error("SystemC engine: the command stream stalled with commands left "
                  "(a dependency that never finishes)");
    }
  }

  PortBlock sram, noc;
  DmaBlock dma;
  ArrayBlock array;
  UnitBlock sfu, host;

 private:
  Block::Done done() {
    return [this](uint32_t c, double end, bool released) { finished(c, end, released); };
  }

  void finished(uint32_t c, double end, bool released) {
    if (released) {  // the array is free and c's operand halves may refill
      run_->logic.released(c, end);
      wake_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    run_->logic.finished(c, end);
    run_->end = std::max(run_->end, end);
    wake_.notify(sc_core::SC_ZERO_TIME);
  }

  // Can the block that runs c take it now? The DMA pipelines transfers; the array, the SFU and
  // the host run one command at a time.
  bool free(uint32_t c, double now) const {
    switch (stream_->commands[c].kind) {
      case Kind::Load:
      case Kind::Store:
        return true;
      case Kind::Compute:
        return models_->array.free() <= now + kTimeEps;
      case Kind::Sfu:
        return models_->sfu.free() <= now + kTimeEps;
      case Kind::Host:
        return models_->host.free() <= now + kTimeEps;
    }
    return true;
  }

  void step() {
    if (run_ == nullptr) return;
    const double now = nowCycles();
    IssueLogic& logic = run_->logic;
    for (bool progress = true; progress;) {
      progress = false;
      logic.dispatch(now);
      for (int q = 0; q < kNumQueues; ++q) {
        for (uint32_t c; (c = logic.ready(Queue(q))) != kNone && free(c, now);) {
          logic.issued(c, now);
          CommandTiming& t = run_->timing[c];
          switch (stream_->commands[c].kind) {
            case Kind::Load:
            case Kind::Store:
              dma.accept(*models_, *stream_, c, t);
              break;
            case Kind::Compute:
              array.accept(*models_, *stream_, c, t);
              break;
            case Kind::Sfu:
              sfu.accept(*models_, *stream_, c, t);
              break;
            case Kind::Host:
              host.accept(*models_, *stream_, c, t);
              break;
          }
          progress = true;
          logic.dispatch(now);
        }
      }
    }
  }

  sc_core::sc_event wake_;
  const CommandStream* stream_ = nullptr;
  BlockModels* models_ = nullptr;
  OpRun* run_ = nullptr;
};

Platform& platform() {
  static Platform* p = [] {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    auto* top = new Platform("accelerator");  // lives as long as the simulation kernel
    elaborateFabric();                          // every module before the one elaboration
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate once
    return top;
  }();
  return *p;
}

}  // namespace

void ensureElaborated() { platform(); }

void runOnPlatform(const CommandStream& stream, BlockModels& models, OpRun& run) {
  platform().run(stream, models, run);
}

}  // namespace tessel::sim::systemc
