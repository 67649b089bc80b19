tessel_bench(bench_llm_serve SOURCES bench_llm_serve.cpp LIBS tessel_serve_llm)
target_include_directories(bench_llm_serve PRIVATE ${TESSEL_SOURCE_DIR})
