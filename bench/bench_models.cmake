# Writes its ONNX model with the protobuf classes libonnx ships (onnx_proto), as the tests do.
tessel_bench(bench_models SOURCES bench_models.cpp LIBS tessel_models onnx_proto)
target_include_directories(bench_models PRIVATE ${TESSEL_SOURCE_DIR})
