// `tessel sweep` end to end: kill -9 and Ctrl-C at any moment lose nothing written and a
// resume never duplicates a point; mpirun -n 2 writes what a local run writes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "sweep/results_dir.h"
#include "tests/cli_runner.h"
#include "tests/sweep/spec_helpers.h"

namespace tessel::testing {
namespace {

// 24 points of a few milliseconds each: long enough to be killed in the middle.
const char* kBody =
    "mapper: {name: search, budget: 2000}\n"
    "workloads:\n  - {name: gpt2-small, layers: 1, seq: [64, 128]}\n"
    "grid:\n  scratchpad.capacity: [64KiB, 128KiB, 256KiB]\n"
    "  accumulator.capacity: [16KiB, 32KiB, 64KiB, 128KiB]\n";

pid_t start(const std::string& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string cmd = std::string("exec ") + TESSEL_BINARY + " " + args + " >/dev/null 2>&1";
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
    ::_exit(127);
  }
  return pid;
}

size_t linesIn(const std::string& path) { return sweep::readResultLines(path).size(); }

// Waits until `path` has at least `n` complete lines (or 60 s pass).
void waitForLines(const std::string& path, size_t n) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (linesIn(path) < n && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::set<int64_t> indices(const std::string& path) {
  std::set<int64_t> seen;
  for (const std::string& line : sweep::readResultLines(path)) {
    EXPECT_TRUE(seen.insert(nlohmann::json::parse(line)["index"].get<int64_t>()).second) << line;
  }
  return seen;
}

std::string reference(const std::string& spec) {
  static std::string text;
  if (text.empty()) {
    const std::string dir = freshDir("cli-ref");
    const CliResult r = runTessel("sweep " + spec + " -o " + dir + "/out --workers 2");
    EXPECT_EQ(r.code, 0) << r.out;
    text = slurp(dir + "/out/results.jsonl");
  }
  return text;
}

TEST(SweepCli, KillNineThenResumeLosesNothingAndDuplicatesNothing) {
  const std::string dir = freshDir("kill9");
  const std::string spec = writeSpec(dir, kBody);
  const std::string out = dir + "/out";
  for (size_t at : {3u, 11u}) {  // killed twice, at different moments
    const pid_t pid = start("sweep " + spec + " -o " + out + " --workers 2" + (at > 3 ? " --resume" : ""));
    waitForLines(out + "/points.jsonl", at);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    EXPECT_GE(linesIn(out + "/points.jsonl"), at);
    indices(out + "/points.jsonl");  // every line whole and unique
  }
  const CliResult r = runTessel("sweep " + spec + " -o " + out + " --resume");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(indices(out + "/points.jsonl").size(), 24u);
  EXPECT_EQ(slurp(out + "/results.jsonl"), reference(spec));
}

TEST(SweepCli, CtrlCStopsWithExit130AndSaysHowToFinish) {
  const std::string dir = freshDir("sigint");
  const std::string spec = writeSpec(dir, kBody);
  const std::string out = dir + "/out";
  const pid_t pid = start("sweep " + spec + " -o " + out + " --workers 2");
  waitForLines(out + "/points.jsonl", 4);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_FALSE(std::filesystem::exists(out + "/results.jsonl"));
  const CliResult again = runTessel("sweep " + spec + " -o " + out);
  EXPECT_EQ(again.code, 2);  // never overwrites without --resume
  EXPECT_NE(again.out.find("add --resume"), std::string::npos) << again.out;
  const CliResult r = runTessel("sweep " + spec + " -o " + out + " --resume");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("already done"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(out + "/results.jsonl"), reference(spec));
}

TEST(SweepCli, SystemcPointsRunInWorkerProcessesWithTheSameResults) {
  // Each worker process runs several SystemC simulations, one after another.
  const std::string dir = freshDir("systemc");
  const std::string spec = writeSpec(dir,
                                     "engine: systemc\nmapper: {name: search, budget: 300}\n"
                                     "workloads:\n  - {name: gpt2-small, layers: 1, seq: 32}\n"
                                     "grid:\n  accumulator.capacity: [32KiB, 64KiB, 128KiB]\n");
  ASSERT_EQ(runTessel("sweep " + spec + " -o " + dir + "/one --workers 1 -q").code, 0);
  const CliResult r = runTessel("sweep " + spec + " -o " + dir + "/two --workers 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ran 3, 0 failed"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(dir + "/one/results.jsonl"), slurp(dir + "/two/results.jsonl"));
}

TEST(SweepCli, BadSpecsExitTwoWithTheLocation) {
  const std::string dir = freshDir("bad");
  const std::string spec = writeSpec(dir, "workloads: [gpt2]\ngrid:\n  array.rowz: [8]\n");
  const CliResult r = runTessel("sweep " + spec + " -o " + dir + "/out");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(spec + ":4:3: at 'grid.array.rowz'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did you mean 'array.rows'"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out"));
}

TEST(SweepCli, AFlatAxisIsNotedOnStderrAndTheFrontsGoToTheSummary) {
  // Gemmini's off-chip rate is its DMA window (10.24 B/cycle), so DRAM at 12 or 16 B/cycle
  // (one DDR3 channel either way: the same PHY) changes nothing; the scratchpad does.
  const std::string dir = freshDir("notes");
  const std::string spec = writeSpec(dir,
                                     "mapper: gemmini-auto\nworkloads: [\"gemm:M=512,K=512,N=512\"]\n"
                                     "grid:\n  dram.bandwidth: [12 B/cycle, 16 B/cycle]\n"
                                     "  scratchpad.capacity: [32KiB, 256KiB]\n"
                                     "metrics: [cycles, energy_pj, area_mm2]\n"
                                     "pareto: [cycles, area_mm2]\n");
  const CliResult r = runTessel("sweep " + spec + " -o " + dir + "/out -q");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("note: dram.bandwidth changed no result (every point equal when only it "
                       "varies); the off-chip rate is set by the dma window (10.24 B/cycle)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("note: scratchpad.capacity"), std::string::npos) << r.out;
  const auto summary = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  EXPECT_EQ(summary["notes"].size(), 1u);
  EXPECT_EQ(summary["pareto"]["fronts"].size(), 1u);
  EXPECT_EQ(summary["pareto"]["objectives"][1]["metric"], "area_mm2");
}

#ifdef TESSEL_MPIEXEC
TEST(SweepCli, TwoMpiRanksWriteWhatALocalRunWrites) {
  const std::string dir = freshDir("mpi");
  const std::string spec = writeSpec(dir, kBody);
  // Leak checks would flag the MPI library's own allocations in a sanitized build.
  const std::string cmd = "ASAN_OPTIONS=detect_leaks=0 OMPI_ALLOW_RUN_AS_ROOT=1 "
                          "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " TESSEL_MPIEXEC
                          " --oversubscribe -n 2 " TESSEL_BINARY " sweep " + spec + " -o " + dir +
                          "/out 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string output;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) output.append(buf, n);
  const int status = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find("24 points"), std::string::npos) << output;  // one summary, rank 0's
  EXPECT_EQ(indices(dir + "/out/points.jsonl").size(), 24u);
  EXPECT_EQ(slurp(dir + "/out/results.jsonl"), reference(spec));
}
#endif

}  // namespace
}  // namespace tessel::testing

namespace tessel::testing {
namespace {

// The shipped co-design study, end to end: its steps reproduce the published direction through
// the modeled mechanisms, and the report carries the numbers of the sweeps it came from.
TEST(StudyCli, TheCodesignStudyShowsEachStepsMechanismAndItsReport) {
  const std::string dir = freshDir("study");
  const std::string study = std::string(TESSEL_SOURCE_DIR) + "/configs/studies/transformer-codesign.yaml";
  const CliResult r = runTessel("study " + study + " -o " + dir + "/out -q");
  ASSERT_EQ(r.code, 0) << r.out;
  std::map<std::string, nlohmann::json> by;  // "workload seq arch" -> result line
  int refused = 0;
  for (const std::string& line : sweep::readResultLines(dir + "/out/steps/results.jsonl")) {
    const auto j = nlohmann::json::parse(line);
    const std::string key = j["params"]["workload"].get<std::string>() + " " +
                            j["params"]["workload.seq"].dump() + " " + j["params"]["arch"].get<std::string>();
    if (j["status"] != "ok") {
      ++refused;  // sequence 2048 is past both models' position embeddings
      EXPECT_NE(j["error"].get<std::string>().find("2048 exceeds"), std::string::npos) << line;
      continue;
    }
    by[key] = j["metrics"];
  }
  EXPECT_EQ(refused, 6);
  ASSERT_EQ(by.size(), 12u);  // 2 workloads x seq {128, 512} x 3 designs
  for (const std::string w : {"bert-base 512", "gpt2-small 512"}) {
    const auto& s0 = by[w + " codesign-0-baseline"];
    const auto& s1 = by[w + " codesign-1-rebalanced"];
    const auto& s2 = by[w + " codesign-2-ibert"];
    // Step 0: conversions are ops of their own, and most time is outside the matmuls.
    EXPECT_GT(s0["by_class"]["QuantDequant"].get<double>(), 0.1 * s0["cycles"].get<double>()) << w;
    EXPECT_LT(s0["matmul_cycles"].get<double>(), 0.1 * s0["cycles"].get<double>()) << w;
    // Step 1: the same host work; matmuls faster through fewer re-loads under the DMA window.
    EXPECT_EQ(s1["by_class"]["QuantDequant"], s0["by_class"]["QuantDequant"]) << w;
    EXPECT_LT(s1["matmul_cycles"].get<double>(), 0.97 * s0["matmul_cycles"].get<double>()) << w;
    // Step 2: no conversions, and more than an order of magnitude end to end.
    EXPECT_EQ(s2["by_class"]["QuantDequant"].get<double>(), 0.0) << w;
    EXPECT_GT(s1["cycles"].get<double>(), 10 * s2["cycles"].get<double>()) << w;
  }
  // The report's speedup notes are the ratios of the sweep's cycles.
  const std::string html = slurp(dir + "/out/report.html");
  const auto& a = by["bert-base 512 codesign-1-rebalanced"];
  const auto& b = by["bert-base 512 codesign-2-ibert"];
  const double speedup = a["cycles"].get<double>() / b["cycles"].get<double>();
  const std::string marker = "id=\"speedup-bert-base-512-2\"";
  const size_t at = html.find(marker);
  ASSERT_NE(at, std::string::npos);
  const size_t v = html.find("data-speedup=\"", at);
  ASSERT_NE(v, std::string::npos);
  EXPECT_NEAR(std::stod(html.substr(v + 14)), speedup, 1e-9 * speedup);
  EXPECT_NE(html.find("id=\"study-grid-0\""), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/report.md"));
  // Run again without --resume: refused, nothing replaced.
  EXPECT_EQ(runTessel("study " + study + " -o " + dir + "/out -q").code, 2);
  EXPECT_EQ(slurp(dir + "/out/report.html"), html);
}

}  // namespace
}  // namespace tessel::testing
