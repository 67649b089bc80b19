// Outputs never lose or damage anything: special files are written in place, symlinks through,
// read-only files and inputs are refused, two outputs cannot share a path, every write is
// checked, and a closed standard output does not lose a report that was asked for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace {

using tessel::testing::CliResult;
using tessel::testing::runTessel;
using tessel::testing::slurp;
using ::testing::HasSubstr;

const std::string kRun = "run --arch " + std::string(TESSEL_SOURCE_DIR) +
                         "/configs/arch/gemmini-default.yaml --workload gemm:M=64,K=64,N=64";

// A fresh directory per test.
std::string dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "tessel_out_" + name;
  std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  return d;
}

// Runs a shell command line; stdout and stderr together.
CliResult shell(const std::string& cmd) {
  CliResult r;
  FILE* p = popen(("bash -c '" + cmd + "' 2>&1").c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool isJson(const std::string& text) { return nlohmann::json::accept(text); }

TEST(Outputs, DevNullStaysADevice) {
  const auto r = runTessel(kRun + " -q --json /dev/null");
  EXPECT_EQ(r.code, 0) << r.out;
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(Outputs, AFullDeviceIsAnErrorNamingIt) {
  const auto r = runTessel(kRun + " -q --json /dev/full");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("/dev/full: cannot write the output file: No space left on device"));
}

TEST(Outputs, DashAndDevStdoutAreStandardOutputWithoutTheTable) {
  for (const char* path : {"-", "/dev/stdout"}) {
    const auto r = runTessel(kRun + " --json " + path + " 2>/dev/null");
    EXPECT_EQ(r.code, 0) << path;
    EXPECT_TRUE(isJson(r.out)) << path << ": " << r.out.substr(0, 200);
  }
}

TEST(Outputs, AFifoIsWrittenInPlace) {
  const std::string d = dir("fifo");
  const auto r = shell("cd " + d + " && mkfifo f && (cat f > got &) && " +
                       std::string(TESSEL_BINARY) + " " + kRun +
                       " -q --json f; c=$?; sleep 0.3; "
                       "test -p f && echo still-a-fifo; exit $c");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("still-a-fifo"));
  EXPECT_TRUE(isJson(slurp(d + "/got")));
}

TEST(Outputs, ASymlinkIsWrittenThrough) {
  const std::string d = dir("link");
  std::ofstream(d + "/target.json") << "old";
  ASSERT_EQ(symlink("target.json", (d + "/link.json").c_str()), 0);
  const auto r = runTessel(kRun + " -q --json " + d + "/link.json");
  EXPECT_EQ(r.code, 0) << r.out;
  struct stat st {};
  ASSERT_EQ(lstat((d + "/link.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_TRUE(isJson(slurp(d + "/target.json")));
}

TEST(Outputs, AReadOnlyReportIsNotOverwritten) {
  const std::string d = dir("ro");
  std::ofstream(d + "/ro.json") << "keep me";
  chmod((d + "/ro.json").c_str(), 0444);
  const auto r = runTessel(kRun + " -q --json " + d + "/ro.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("it is read-only"));
  EXPECT_EQ(slurp(d + "/ro.json"), "keep me");
}

TEST(Outputs, TwoOutputsCannotShareAPath) {
  const std::string d = dir("same");
  const auto r = runTessel(kRun + " -q --json " + d + "/x --csv " + d + "/./x");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("--json and --csv name the same file"));
  EXPECT_NE(access((d + "/x").c_str(), F_OK), 0);  // checked before any work: nothing written
}

TEST(Outputs, AnInputIsNeverOverwritten) {
  const std::string d = dir("input");
  const std::string arch = d + "/a.yaml";
  std::system(
      ("cp " + std::string(TESSEL_SOURCE_DIR) + "/configs/arch/gemmini-default.yaml " + arch)
          .c_str());
  const std::string before = slurp(arch);
  const auto r = runTessel("run --arch " + arch + " --workload gemm:M=8,K=8,N=8 -q --csv " + arch);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("--csv names an input of this command"));
  EXPECT_EQ(slurp(arch), before);
}

TEST(Outputs, PathsAreCheckedBeforeWorkWithTheRealReason) {
  const auto missing = runTessel(kRun + " -q --json /nonexistent-dir/x.json");
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.out, HasSubstr("directory '/nonexistent-dir' does not exist"));
  const auto directory = runTessel(kRun + " -q --json " + ::testing::TempDir());
  EXPECT_EQ(directory.code, 2);
  EXPECT_THAT(directory.out, HasSubstr("it is a directory"));
  // precision's --out is checked before the (long) search runs.
  const auto plan = runTessel(
      "precision --workload gemm:M=8,K=8,N=8 --tolerance 0.1 --out /nonexistent-dir/p.yaml");
  EXPECT_EQ(plan.code, 2);
  EXPECT_THAT(plan.out, HasSubstr("directory '/nonexistent-dir' does not exist"));
}

TEST(Outputs, AClosedPipeKeepsTheReportAndIsReported) {
  // The full table of GPT-2 is far larger than a pipe buffer: head exits, writes fail with
  // EPIPE, the JSON is still written whole and the exit code says what happened.
  const std::string d = dir("pipe");
  const auto r = shell(std::string(TESSEL_BINARY) + " run --arch " + TESSEL_SOURCE_DIR +
                       "/configs/arch/gemmini-default.yaml --workload gpt2-small --seq 64 "
                       "--top all --json " +
                       d + "/r.json | head -1; exit ${PIPESTATUS[0]}");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("error: standard output: Broken pipe"));
  EXPECT_TRUE(isJson(slurp(d + "/r.json")));
}

TEST(Outputs, AFullStandardOutputIsAnError) {
  for (const std::string& cmd : {kRun, std::string("workload gemm:M=8,K=8,N=8")}) {
    const auto r = shell(std::string(TESSEL_BINARY) + " " + cmd + " > /dev/full");
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_THAT(r.out, HasSubstr("standard output: No space left on device")) << cmd;
  }
}

TEST(Outputs, NewFilesAreReadableAndExistingOnesKeepTheirMode) {
  const std::string d = dir("mode");
  std::ofstream(d + "/kept.json") << "x";
  chmod((d + "/kept.json").c_str(), 0640);
  ASSERT_EQ(runTessel(kRun + " -q --json " + d + "/kept.json --csv " + d + "/new.csv").code, 0);
  struct stat st {};
  ASSERT_EQ(stat((d + "/kept.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  ASSERT_EQ(stat((d + "/new.csv").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0444, 0u);
}

TEST(Outputs, TopAllAndBadTopValues) {
  const auto all = runTessel(kRun + " --top all");
  EXPECT_THAT(all.out, HasSubstr("Top 1 ops by cycles"));
  const auto bad = runTessel(kRun + " --top -1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.out, HasSubstr("--top: expected a number of ops (0 = none) or 'all'"));
}

}  // namespace
