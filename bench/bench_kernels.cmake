# Kernel benchmarks: INT8 vs Eigen FP32 GEMM, fused vs unfused epilogues (docs/kernels.md).
tessel_bench(bench_kernels SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/bench_kernels.cpp
             LIBS tessel_kernels Eigen3::Eigen)
target_compile_options(bench_kernels PRIVATE ${TESSEL_WARNINGS})
if(TESSEL_NATIVE)
  # Lets the Eigen FP32 baseline use the best vector ISA of this machine.
  target_compile_options(bench_kernels PRIVATE -march=native -Wno-maybe-uninitialized)
endif()
