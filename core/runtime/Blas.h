#pragma once
// OpenBLAS, loaded when the runtime first needs it rather than linked. Debian's OpenBLAS picks
// its kernels by CPU model when it loads, and on a virtual CPU that reports no model it knows
// it falls back to 2004's Prescott kernels, 5-7x slower than the AVX2/AVX-512 ones the CPU
// runs. Loading it ourselves lets us set OPENBLAS_CORETYPE from the CPU's features first (a
// user's own setting is kept), with no restart of a library that is already running.

#include <cblas.h>

#include <string>

namespace strata::runtime {

struct Blas {
    decltype(&cblas_sgemm) sgemm = nullptr; // row- or column-major, as cblas_sgemm
    std::string coreType;                   // the kernels OpenBLAS was asked for ("" = its own choice)
    std::string coreName;                   // the kernels it runs (openblas_get_corename)
    std::string error;                      // why sgemm is null
};

// Whether OpenBLAS runs kernels for AVX-512 (SkylakeX and its successors), the only ones that
// match oneDNN's sgemm anywhere: its AVX2 (Haswell) kernels, which an OPENBLAS_CORETYPE=Haswell
// in the environment selects even on an AVX-512 CPU, ran at half oneDNN's rate on every product
// shape measured (docs/RUNTIME.md).
bool runsAvx512Kernels(const std::string& coreName);

// Loads libopenblas.so.0 once, single-threaded (the runtime's worker threads are the parallelism).
const Blas& blas();

} // namespace strata::runtime
