# SystemC owns main: bench_serve.cpp defines sc_main and forks one simulation per iteration.
tessel_bench(bench_serve SOURCES bench_serve.cpp LIBS tessel_serve_timeline)
target_include_directories(bench_serve PRIVATE ${TESSEL_SOURCE_DIR})
