# Full-model forward passes on the functional executor (docs/executor.md records the figures).
tessel_bench(bench_executor SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/bench_executor.cpp
             LIBS tessel_kernels tessel_models)
target_compile_options(bench_executor PRIVATE ${TESSEL_WARNINGS})
