// tessel serve: profile the deployed graph with the engines, simulate the request stream on the
// timeline for every (cores, batch, workers), print the table and the recommendations.
#include <algorithm>
#include <sstream>

#include "apps/tessel/commands.h"
#include "apps/tessel/workload_args.h"
#include "arch/load.h"
#include "dataflows/dataflow.h"
#include "models/workload.h"
#include "reports/serve/serve_report.h"
#include "serve/service.h"
#include "util/error.h"

namespace tessel::app {

namespace {

template <typename T>
std::string joined(const std::vector<T>& values) {
  std::ostringstream os;
  for (size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i];
  return os.str();
}

bool given(const ServeArgs& a, const std::string& option) {
  return std::find(a.given.begin(), a.given.end(), option) != a.given.end();
}

serve::ServeOptions serveOptions(const ServeArgs& a, const arch::Accelerator& acc) {
  serve::ServeOptions o;
  o.workers = a.workers;
  o.batches = a.batches;
  o.modes.clear();
  for (const std::string& c : a.cores) {
    const serve::CoreMode m = serve::parseCoreMode(c);
    if (std::find(o.modes.begin(), o.modes.end(), m) == o.modes.end()) o.modes.push_back(m);
  }
  if (o.modes.empty()) {
    o.modes.push_back(serve::CoreMode::Single);
    if (acc.cores.count > 1) o.modes.push_back(serve::CoreMode::Fused);
  }
  if (a.rates.size() > 1) {
    throw ConfigError({"", 0, 0, "--rate"},
                      "one --rate per service of this workload (a list sweeps an LLM service)");
  }
  const double rate = a.rates.empty() ? 0.0 : a.rates.front();
  if (rate > 0 && a.closed_loop) {
    throw ConfigError({"", 0, 0, "--rate"},
                      "--rate sets open-loop arrivals and --closed-loop asks for none; give one");
  }
  if (rate != 0 || given(a, "--rate")) {
    if (a.arrivals != "poisson" && a.arrivals != "uniform") {
      throw ConfigError({"", 0, 0, "--arrivals"},
                        "--arrivals '" + a.arrivals + "' is not one of poisson, uniform");
    }
    o.arrivals = a.arrivals == "poisson" ? serve::Arrivals::Poisson : serve::Arrivals::Uniform;
    o.rate = rate;
  } else if (given(a, "--arrivals")) {
    throw ConfigError({"", 0, 0, "--arrivals"}, "--arrivals needs --rate (open-loop arrivals)");
  }
  o.requests = a.requests;
  o.jitter = a.jitter;
  o.seed = a.seed;
  o.submit_capacity = a.submit_queue;
  o.receive_capacity = a.receive_queue;
  o.host_cpus = a.host_cpus;
  o.variants = !a.no_variants;
  return o;
}

std::vector<std::pair<std::string, std::string>> labels(const ServeArgs& a,
                                                        const serve::ServeOptions& o,
                                                        const std::string& dataflow) {
  std::vector<std::string> modes;
  for (serve::CoreMode m : o.modes) modes.push_back(serve::nameOf(m));
  std::vector<std::pair<std::string, std::string>> l = {
      {"arch_file", a.arch},
      {"workload", a.workload.name},
      {"dataflow", dataflow},
      {"mapper", a.mapper},
      {"cores", joined(modes)},
      {"workers", joined(a.workers)},
      {"batch", joined(a.batches)},
      {"arrivals", o.arrivals == serve::Arrivals::ClosedLoop ? "closed loop"
                   : o.arrivals == serve::Arrivals::Poisson  ? "poisson"
                                                             : "uniform"},
      {"requests", std::to_string(a.requests)},
      {"input_dtype", a.input_dtype},
      {"output_dtype", a.output_dtype},
      {"layout", a.layout},
  };
  if (o.arrivals != serve::Arrivals::ClosedLoop) {
    std::ostringstream r;
    r << a.rates.front();
    l.emplace_back("rate", r.str());
  }
  if (a.jitter > 0) {
    std::ostringstream j;
    j << a.jitter;
    l.emplace_back("jitter", j.str());
    l.emplace_back("seed", std::to_string(a.seed));
  }
  for (const std::string& g : a.workload.given) {
    if (g == "--seq") l.emplace_back("seq", std::to_string(a.workload.seq));
    if (g == "--phase") l.emplace_back("phase", a.workload.phase);
    if (g == "--image") l.emplace_back("image", std::to_string(a.workload.image));
    if (g == "--layers") l.emplace_back("layers", std::to_string(a.workload.layers));
  }
  for (const auto& p : a.overrides) l.emplace_back("override", p);
  return l;
}

}  // namespace

int serveCommand(const ServeArgs& args, std::ostream& out) {
  models::DecoderFacts facts;
  const std::vector<std::string>& wg = args.workload.given;
  const bool phase = std::find(wg.begin(), wg.end(), "--phase") != wg.end();
  if (!phase && models::decoderFacts(args.workload.name, facts)) {
    return llmServeCommand(args, out);
  }
  if (!args.system.empty()) {
    throw ConfigError({"", 0, 0, "--system"},
                      "a service on a system of chips is an LLM service: a Hugging Face decoder "
                      "without --phase; '" + args.workload.name + "' " +
                          (phase ? "was given --phase" : "is not one"));
  }
  for (const char* llm : {"--prompt-len", "--output-len", "--max-batch", "--max-tokens", "--chunk",
                          "--kv-block", "--kv-budget", "--slo", "--priority", "--preemption",
                          "--exact", "--prefix-caching", "--step-overhead",
                          "--sequence-overhead", "--compare-measured"}) {
    if (given(args, llm)) {
      throw ConfigError({"", 0, 0, llm},
                        std::string(llm) + " applies to an LLM service: a Hugging Face decoder "
                                           "(llama-3.1-8b, a config.json...) without --phase");
    }
  }
  checkOutputs({{"--json", args.json_path}}, {args.arch, args.dataflow});
  const arch::Accelerator acc = arch::loadFile(args.arch, args.overrides);
  const dataflows::Dataflow df = pickDataflow(args.dataflow, acc);
  const serve::ServeOptions options = serveOptions(args, acc);

  serve::ServeInputs in;
  in.acc = &acc;
  in.dataflow = &df;
  models::WorkloadOptions wo = toWorkloadOptions(args.workload, acc.array.input_dtype);
  buildWorkload(args.workload.name, wo);  // a bad workload or option fails before any run
  in.graph = [&](int batch) {
    models::WorkloadOptions at = wo;
    at.batch = batch;
    return buildWorkload(args.workload.name, at);
  };
  in.run.plan.mapper = args.mapper;
  in.run.plan.mapper_options.objective = args.objective;
  in.run.plan.fusion = dataflows::fusionModeFrom(args.fusion);
  in.run.plan.mapper_options.budget = args.budget;
  in.deploy.input_dtype = serve::parseInputDType(args.input_dtype);
  in.deploy.output_dtype = serve::parseOutputDType(args.output_dtype);
  in.deploy.layout = serve::parseInputLayout(args.layout);
  in.deploy.input_dtype_given = given(args, "--input-dtype");
  in.deploy.layout_given = given(args, "--layout");
  const serve::ServeResult result = serve::serve(in, options);

  reports::ServeHeader header;
  header.arch_name = acc.name;
  header.arch_hash = acc.hash();
  header.cores = acc.cores.count;
  header.workload = args.workload.name;
  header.options = labels(args, options, df.name);
  const bool table = !args.quiet && !isStandardOutput(args.json_path);
  if (table) reports::writeServeTable(result, header, out);
  if (!args.json_path.empty()) {
    writeOutput(args.json_path, reports::serveJsonString(result, header), out);
    if (table) out << "JSON report: " << args.json_path << "\n";
  }
  return 0;
}

}  // namespace tessel::app
