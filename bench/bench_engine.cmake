tessel_bench(bench_engine SOURCES bench_engine.cpp LIBS tessel_sim)
