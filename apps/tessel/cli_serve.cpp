// `tessel serve`'s options: the per-inference service and the LLM service.
#include <algorithm>

#include "apps/tessel/cli_options.h"

namespace tessel::app::cli {

void addServe(CLI::App& app, ServeArgs& s, std::function<int()>& action, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "simulate a deployed service: workers, job queues, batching, single or fused cores; on a "
      "decoder LLM, continuous batching with a paged KV cache");
  addTarget(cmd, s.arch, s.system,
            "system YAML: an LLM service on replicas of --tp chips each (--dp replicas)",
            {{"--tp", &s.tp, "tensor-parallel chips per replica (--system)"},
             {"--ep", &s.ep, "expert-parallel chips within --tp (--system)"},
             {"--dp", &s.dp, "replicas sharing the arrivals (--system)"}});
  cmd->add_option("--workload", s.workload.name,
                  "resnet50, gpt2 (with --phase decode), ...; a Hugging Face decoder "
                  "(llama-3.1-8b, a config.json) without --phase: an LLM service")
      ->required();
  addWorkloadOptions(cmd, s.workload, false, false);
  cmd->add_option("--workers", s.workers, "host worker counts to simulate, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--batch", s.batches, "batch sizes (requests per job), comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--cores", s.cores,
                  "single (a job per core), fused (all cores as one device) or both; default: "
                  "both on a multi-core design. An LLM service: fused (default) or "
                  "disaggregated (prefill and decode on separate cores), or both")
      ->delimiter(',');
  cmd->add_option("--prefill-cores", s.prefill_cores,
                  "LLM, --cores disaggregated: cores that prefill (default half, rounded down)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--rate", s.rates,
                  "open-loop arrivals at this many requests/s (an LLM service: a list, R1,R2,...)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--closed-loop", s.closed_loop,
                "each worker takes the next request when free (the default)");
  cmd->add_option("--arrivals", s.arrivals,
                  "open-loop arrival process: poisson | uniform; an LLM service also gamma:CV "
                  "or a trace file (CSV or JSONL: arrival, prompt_tokens, output_tokens)")
      ->capture_default_str();
  cmd->add_option("--prompt-len", s.prompt_len,
                  "LLM: prompt tokens: N | uniform:LO:HI | lognormal:MEAN:CV")
      ->capture_default_str();
  cmd->add_option("--output-len", s.output_len,
                  "LLM: output tokens: N | uniform:LO:HI | lognormal:MEAN:CV")
      ->capture_default_str();
  cmd->add_option("--max-batch", s.max_batches, "LLM: sequences per iteration (a list)")
      ->delimiter(',')
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  cmd->add_option("--max-tokens", s.max_tokens, "LLM: new tokens per iteration")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 24))
      ->capture_default_str();
  cmd->add_option("--chunk", s.chunks,
                  "LLM: prompt tokens of a sequence per iteration (chunked prefill; a list; "
                  "default --max-tokens)")
      ->delimiter(',')
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
  cmd->add_option("--kv-block", s.kv_block, "LLM: tokens per KV-cache block")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  cmd->add_option("--kv-budget", s.kv_budget,
                  "LLM: the KV cache's size (\"4 GiB\"); default: the DRAM weights and "
                  "activations leave");
  cmd->add_option("--slo", s.slo, "LLM: objectives, ttft=S,tpot=S[,e2e=S] (s, ms or us)");
  cmd->add_option("--priority", s.priority, "LLM: decode-first | prefill-first")
      ->check(CLI::IsMember({"decode-first", "prefill-first"}))
      ->capture_default_str();
  cmd->add_option("--preemption", s.preemption, "LLM: recompute | swap (when the KV cache is full)")
      ->check(CLI::IsMember({"recompute", "swap"}))
      ->capture_default_str();
  cmd->add_option("--prefix-caching", s.prefix_caching,
                  "LLM: on | off: requests of a trace's prefix_id reuse its cached KV blocks")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cmd->add_option("--step-overhead", s.step_overhead,
                  "LLM: host time of every iteration (3ms, 25us, seconds; default 0)");
  cmd->add_option("--sequence-overhead", s.sequence_overhead,
                  "LLM: host time of each sequence in an iteration (sampling; default 0)");
  cmd->add_option("--compare-measured", s.compare_measured,
                  "LLM: a measured run (CSV or JSONL: arrival, prompt_tokens, output_tokens, ttft, "
                  "e2e[, stage]): serve its requests, each stage from empty, and print the errors");
  cmd->add_flag("--exact", s.exact,
                "LLM: simulate every iteration shape (no interpolation between grid points)");
  cmd->add_option("--requests", s.requests,
                  "requests per configuration (default 2000; an LLM service: per grid point, "
                  "default 1000)")
      ->check(kInt64);
  cmd->add_option("--jitter", s.jitter,
                  "coefficient of variation of every service time (seeded lognormal)")
      ->capture_default_str();
  cmd->add_option("--seed", s.seed, "seed of the arrivals and the jitter")
      ->check(kSeed)
      ->capture_default_str();
  cmd->add_option("--submit-queue", s.submit_queue, "jobs the submit queue holds")
      ->capture_default_str();
  cmd->add_option("--receive-queue", s.receive_queue, "finished jobs the receive queue holds")
      ->capture_default_str();
  cmd->add_option("--host-cpus", s.host_cpus, "host CPUs the workers share (0 = one each)")
      ->capture_default_str();
  cmd->add_option("--input-dtype", s.input_dtype, "request input: float32 | uint8 | int8")
      ->capture_default_str();
  cmd->add_option("--output-dtype", s.output_dtype, "response output: float32 | int8")
      ->capture_default_str();
  cmd->add_option("--layout", s.layout, "request image layout: nchw | nhwc")->capture_default_str();
  cmd->add_flag("--no-variants", s.no_variants,
                "skip the runs with cheaper input/output dtypes behind the recommendations");
  cmd->add_option("--dataflow", s.dataflow, "ws | os | is | rs | nlr | a dataflow YAML file");
  cmd->add_option("--mapper", s.mapper, "search or gemmini-auto")
      ->check(CLI::IsMember({"search", "gemmini-auto"}))
      ->capture_default_str();
  cmd->add_option("--budget", s.budget, "cost evaluations per distinct layer for the search")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  addFusion(cmd, s.fusion);
  cmd->add_option("-p,--param", s.overrides, "override a YAML key: -p cores.count=2");
  cmd->add_option("--json", s.json_path, "write the results as JSON; - = standard output");
  cmd->add_flag("-q,--quiet", s.quiet, "no table on stdout");
  cmd->callback([&, cmd] {
    checkTarget(cmd, {"--tp", "--ep", "--dp"}, "splits a service over a system's chips: add --system");
    s.workload.given = givenOptions(cmd);
    s.workload.given.erase(
        std::remove(s.workload.given.begin(), s.workload.given.end(), "--batch"),
        s.workload.given.end());
    for (const char* name :
         {"--input-dtype", "--output-dtype", "--layout", "--rate", "--arrivals", "--workers",
          "--batch", "--cores", "--closed-loop", "--jitter", "--submit-queue", "--receive-queue",
          "--host-cpus", "--no-variants", "--prompt-len", "--output-len", "--max-batch",
          "--max-tokens", "--chunk", "--kv-block", "--kv-budget", "--slo", "--priority",
          "--preemption", "--exact", "--budget", "--requests", "--prefill-cores",
          "--prefix-caching", "--step-overhead", "--sequence-overhead", "--compare-measured"}) {
      if (cmd->get_option(name)->count() > 0) s.given.emplace_back(name);
    }
    action = [&] { return tessel::app::serveCommand(s, out); };
  });
}

}  // namespace tessel::app::cli
