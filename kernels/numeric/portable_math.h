// Transcendental functions in double that give the same bits on every x86-64 CPU.
//
// glibc picks exp, log, pow, sin and cos at load time by CPU (FMA builds on CPUs that have FMA),
// and those builds round differently in the last bit; the executor's synthetic weights, rotary
// tables, ONNX element-wise ops and accuracy metrics must not. These use only +, -, *, / and
// exact scaling (the kernels are built with -ffp-contract=off), so every CPU computes the same
// value. Accuracy: within 2 ulp of the exact result on the ranges the tests sweep
// (tests/kernels/test_isa_paths.cpp); speed: within a few times libm's.
#pragma once

namespace tessel::kernels::portable {

double exp(double x);
double log(double x);
double log10(double x);
double pow(double x, double y);  // x^y; x < 0 only for integer y
double sin(double x);            // accurate for |x| < 2^20 (rotary angles); bounded beyond
double cos(double x);
double tanh(double x);
double erf(double x);

}  // namespace tessel::kernels::portable
