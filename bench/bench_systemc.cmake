# SystemC owns main: bench_systemc.cpp defines sc_main.
tessel_bench(bench_systemc SOURCES bench_systemc.cpp LIBS tessel_systemc)
