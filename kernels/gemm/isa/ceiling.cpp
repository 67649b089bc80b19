#include "kernels/gemm/isa/ceiling.h"

#include <atomic>
#include <cstdlib>
#include <string>

#include "util/error.h"

namespace tessel::kernels {

namespace {

constexpr int kUnset = -1;
std::atomic<int> g_ceiling{kUnset};

IsaLevel fromEnvironment() {
  const char* env = std::getenv("TESSEL_ISA");
  const std::string v = env ? env : "";
  IsaLevel wanted = IsaLevel::Avx512;
  if (v == "portable")
    wanted = IsaLevel::Portable;
  else if (v == "avx2")
    wanted = IsaLevel::Avx2;
  else if (!v.empty() && v != "avx512" && v != "auto")
    throw ConfigError({}, "TESSEL_ISA='" + v + "': expected portable, avx2, avx512 or auto");
  return wanted;
}

IsaLevel lowerToCpu(IsaLevel wanted) {
  if (wanted == IsaLevel::Avx512 && !detail::cpuHas(IsaLevel::Avx512)) wanted = IsaLevel::Avx2;
  if (wanted == IsaLevel::Avx2 && !detail::cpuHas(IsaLevel::Avx2)) wanted = IsaLevel::Portable;
  return wanted;
}

}  // namespace

std::string_view nameOf(IsaLevel level) {
  switch (level) {
    case IsaLevel::Portable:
      return "portable";
    case IsaLevel::Avx2:
      return "avx2";
    case IsaLevel::Avx512:
      return "avx512";
  }
  return "?";
}

IsaLevel isaCeiling() {
  int v = g_ceiling.load(std::memory_order_relaxed);
  if (v == kUnset) {
    v = static_cast<int>(lowerToCpu(fromEnvironment()));
    g_ceiling.store(v, std::memory_order_relaxed);
  }
  return static_cast<IsaLevel>(v);
}

void setIsaCeiling(IsaLevel level) {
  g_ceiling.store(static_cast<int>(lowerToCpu(level)), std::memory_order_relaxed);
}

namespace detail {

bool cpuHas(IsaLevel level) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (level == IsaLevel::Avx2) return __builtin_cpu_supports("avx2");
  if (level == IsaLevel::Avx512)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
  return true;
#else
  return level == IsaLevel::Portable;
#endif
}

bool useAvx2() { return isaCeiling() != IsaLevel::Portable; }

}  // namespace detail
}  // namespace tessel::kernels
