# tessel — the two commands users need are `make demo` and `make test`.
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

PREFIX ?= /usr/local

.PHONY: all deps build demo test test-asan fuzz bench bench-compare install format clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	@cmake --build $(BUILD) -j $(JOBS)

demo: deps $(BUILD)/CMakeCache.txt
	@cmake --build $(BUILD) -j $(JOBS) --target tessel
	@mkdir -p out
	./$(BUILD)/apps/tessel/tessel run --arch configs/arch/gemmini-default.yaml \
	    --workload gpt2-small --phase prefill --seq 512 --json out/demo.json

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The executable to PREFIX/bin, the Python package to PREFIX/lib/python3.X/dist-packages/tessel
# (Debian's python3 searches it for /usr/local), the shipped configs to PREFIX/share/tessel.
# Whole commands timed side by side with a baseline revision (built once in build-base-REV/), run
# alternately on this machine: `make bench-compare BASE=761786c` (scripts/bench_compare.sh).
bench-compare: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@bash scripts/bench_compare.sh $(BASE) $(BUILD) $(or $(ROUNDS),5)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# ASan + UBSan at -O1 for the libraries (Debug's -O0 makes the executor tests several times slower for no more
# findings); any finding fails the suite. Every test but the labels whole_models (whole LLMs on
# every shipped design, minutes under the sanitizers), python (the module is not built there) and
# docs (the README's commands), and tests/apps (not built there); the plain build runs them all.
# The sanitized pass leaves out the heaviest tests (25-66 s each sanitized: process-level sweep
# runs that sleep and signal, whole-model sweeps); the plain build runs them all, and the other
# tests of their suites cover the same code under the sanitizers.
ASAN_SKIP := NestSearch.NeverSlowerNorHeavierThanFoldAfterFoldOnOtherArrays|ServeLlmCli.(One|On|Equal|AStream|Disaggregated)|ShippedConfigs/CliRun.*(eyeriss-like|shidiannao-like|tpu-v1-like|tpu-v4i-like|npu-3core|gemmini-survey-model)|ExecutorRandomChains.Gpt2RandomMixedPlans|ExecutorInt8.Fp16AccumulationCostsAccuracy|ExecutorCli.PrecisionPlanFeedsValidateAndRun|SweepCli.KillNineThenResumeLosesNothingAndDuplicatesNothing|SweepCli.TwoMpiRanksWriteWhatALocalRunWrites|SweepCli.CtrlCStopsWithExit130AndSaysHowToFinish|OnnxCnnFiles.MatchDouble/.mobilenet_v2.onnx.|ShippedDesigns/TreeGolden|ExecutorCli.FuseLikeAnAcceleratorMatchesItsTiming|ExecutorCli.ValidateWritesDeterministicJson|ExecutorFusion.Gpt2BlockFloatFormats|ExecutorPrecision.Fp16LowersEverything|ExecutorReference.BatchOfTwoLastRowAndAllLogits|ExecutorPrecision.KlMetric|ShippedConfigs/ArchMutations.*(gemmini-soc|simba-like|tpu-v4i-like|npu-3core|eyeriss-like|shidiannao-like|tpu-v1-like|tpu-v4-like|codesign|h100-sxm-like)|LlmDesigns.PrefillRunsOnEveryDesign|Shipped/HierarchyDesigns.*(simba-like|tpu-v4i-like)|ShippedConfigs/CliRun.*(gemmini-default|simba-like|h100-sxm-like)

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DTESSEL_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -LE 'whole_models|python|docs' -E '$(ASAN_SKIP)'

# libFuzzer targets (clang), each run for FUZZ_SECONDS; see fuzz/README.md.
fuzz: deps
	@bash scripts/install-deps.sh clang libclang-rt-14-dev
	@if [ "$(BUILD)" = "$(FUZZ_BUILD)" ]; then echo "FUZZ_BUILD must differ from BUILD"; exit 2; fi
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSEL_FUZZ=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_arch fuzz_dataflow fuzz_precision_plan fuzz_workload fuzz_cli fuzz_onnx \
	    fuzz_scalesim fuzz_timeloop_map fuzz_trace
	@bash scripts/fuzz.sh $(abspath $(FUZZ_BUILD)) $(FUZZ_SECONDS)

bench: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target tessel_benchmarks tessel tessel_python
	./$(BUILD)/bench/bench_engine
	./$(BUILD)/bench/bench_kernels
	./$(BUILD)/bench/bench_executor
	./$(BUILD)/bench/bench_mapper
	./$(BUILD)/bench/bench_systemc
	./$(BUILD)/bench/bench_pe_grid
	./$(BUILD)/bench/bench_serve
	./$(BUILD)/bench/bench_models
	bash bench/sweep_bench.sh $(BUILD)
	bash bench/scalesim_bench.sh $(BUILD)
	/usr/bin/python3 bench/python_calls.py $(BUILD)

format:
	@clang-format -i $$(git ls-files '*.h' '*.cpp')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
