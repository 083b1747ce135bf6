#pragma once
// STRATA_CLONED_FOR_X86: a function compiled three times, for AVX-512 (x86-64-v4), AVX2+FMA
// (x86-64-v3) and the baseline, the loader picking the clone this machine runs. The runtime is
// built for the baseline (a package runs anywhere); its hot loops, strata_rt's kernels inlined
// into such a function, then still get the machine's vectors. Other architectures: one version.

#if defined(__x86_64__)
#define STRATA_CLONED_FOR_X86                                                                      \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define STRATA_CLONED_FOR_X86
#endif
