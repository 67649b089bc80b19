# SystemC owns main: bench_pe_grid.cpp defines sc_main (one simulation per process).
tessel_bench(bench_pe_grid SOURCES bench_pe_grid.cpp LIBS tessel_pe_grid)
