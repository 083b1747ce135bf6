#include "runtime/Blas.h"

#include <cstdlib>
#include <dlfcn.h>
#include <fmt/format.h>
#include <strings.h>

namespace strata::runtime {
namespace {

constexpr const char* kLibrary = "libopenblas.so.0";

// The OpenBLAS kernel family for this CPU's vector units; null leaves the choice to OpenBLAS.
const char* coreTypeForThisCpu() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
    return nullptr;
}

Blas load() {
    Blas b;
    if (const char* set = std::getenv("OPENBLAS_CORETYPE")) {
        b.coreType = set;
    } else if (const char* core = coreTypeForThisCpu()) {
        setenv("OPENBLAS_CORETYPE", core, 0); // read by OpenBLAS's constructor in dlopen below
        b.coreType = core;
    }
    void* library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        b.error = fmt::format("cannot load OpenBLAS ({}): {}; install libopenblas0", kLibrary, dlerror());
        return b;
    }
    auto* sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(library, "cblas_sgemm"));
    auto* setThreads = reinterpret_cast<void (*)(int)>(dlsym(library, "openblas_set_num_threads"));
    if (!sgemm || !setThreads) {
        b.error = fmt::format("{} has no cblas_sgemm or openblas_set_num_threads", kLibrary);
        return b;
    }
    setThreads(1);
    b.sgemm = sgemm;
    if (auto* corename = reinterpret_cast<char* (*)()>(dlsym(library, "openblas_get_corename")))
        b.coreName = corename();
    return b;
}

} // namespace

bool runsAvx512Kernels(const std::string& coreName) {
    for (const char* avx512 : {"SkylakeX", "Cooperlake", "SapphireRapids"})
        if (strcasecmp(coreName.c_str(), avx512) == 0)
            return true;
    return false;
}

const Blas& blas() {
    static const Blas loaded = load();
    return loaded;
}

} // namespace strata::runtime
