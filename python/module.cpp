// tessel._tessel: the compiled half of the `tessel` Python package (python/tessel/ is the other
// half). It runs tessel's command line — the same parser, the same library calls, the same JSON
// documents as the `tessel` executable — either in this process (quick checks that never touch
// SystemC) or in a forked worker (everything that simulates), with the GIL released while the
// worker runs and Ctrl-C stopping it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdlib>

#include "python/worker.h"
#include "serve/timeline/register.h"
#include "sim/systemc/systemc_engine.h"

// libsystemc defines `main` and calls sc_main; a shared object linking it must provide the
// symbol to load (exported: pybind11 hides the module's symbols). Nothing calls it: the SystemC
// work happens in forked workers.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) { return 0; }

namespace py = pybind11;
using tessel::python::CommandResult;

namespace {

py::dict toDict(const CommandResult& r) {
  py::dict failure;
  failure["kind"] = r.failure.kind;
  failure["message"] = r.failure.message;
  failure["text"] = r.failure.text;
  failure["file"] = r.failure.file;
  failure["line"] = r.failure.line;
  failure["column"] = r.failure.column;
  failure["yaml_path"] = r.failure.yaml_path;
  py::dict d;
  d["code"] = r.code;
  d["out"] = py::bytes(r.out).attr("decode")("utf-8", "replace");
  d["err"] = py::bytes(r.err).attr("decode")("utf-8", "replace");
  d["failure"] = failure;
  return d;
}

py::dict runForked(const std::vector<std::string>& argv) {
  bool stopped = false;
  CommandResult result;
  {
    py::gil_scoped_release release;
    result = tessel::python::runForked(
        argv,
        [] {
          py::gil_scoped_acquire acquire;
          return PyErr_CheckSignals() != 0;  // leaves KeyboardInterrupt (or the handler's error) set
        },
        stopped);
  }
  if (stopped) throw py::error_already_set();
  return toDict(result);
}

py::dict runInProcess(const std::vector<std::string>& argv) {
  CommandResult result;
  {
    py::gil_scoped_release release;
    result = tessel::python::runInProcess(argv);
  }
  return toDict(result);
}

}  // namespace

PYBIND11_MODULE(_tessel, m) {
  m.doc() =
      "tessel's command line as functions. Use the `tessel` package, which builds the arguments "
      "and turns the answers into result objects and exceptions.";
  // SystemC prints a banner when its kernel starts (in a worker): keep it quiet, as the CLI does.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  tessel::sim::systemc::registerEngine();
  tessel::serve::systemc::registerTimeline();
  m.def("run_forked", &runForked, py::arg("argv"),
        "Run `tessel ARGV...` in a forked worker process; returns {code, out, err, failure}. "
        "The GIL is released while it runs; Ctrl-C stops the worker and raises "
        "KeyboardInterrupt.");
  m.def("run_in_process", &runInProcess, py::arg("argv"),
        "Run `tessel ARGV...` in this process (only for commands that never start SystemC: "
        "`arch check`, `workload`, `dataflows`); returns {code, out, err, failure}.");
}
