#pragma once
// Facts about the machine Strata runs on, for the `host` target (`"detect_host": true`): CPU
// count, per-core L2 and last-level cache share, physical memory and maximum clock, read from
// sysconf, /sys and /proc.

#include "target/Target.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace strata::target {

struct HostFacts {
    int cpus = 1;                     // online CPUs
    std::string cpuModel = "unknown"; // /proc/cpuinfo "model name" (else "Processor", "cpu model")
    std::uint64_t l2BytesPerCore = 0; // an L2 shared by k CPUs counts 1/k to each
    std::uint64_t lastLevelBytesPerCore =
        0;                          // the cache beyond L2 (L3...), shared likewise; 0 if none
    std::uint64_t lastLevelBytes = 0; // the whole of it (the shares of the CPUs sharing it)
    std::uint64_t memoryBytes = 0;  // physical RAM
    double maxClockHz = 0;          // 0 when unknown
    int vectorFloats = 1;           // floats per SIMD register: 16 AVX-512, 8 AVX2, 4 SSE/NEON
    std::vector<std::string> notes; // where each figure came from, and every fallback taken

    // What a core's tiles can keep in cache: its L2 plus its share of the last-level cache.
    std::uint64_t scratchBytesPerCore() const { return l2BytesPerCore + lastLevelBytesPerCore; }
};

// The size in bytes of this processor's level-`level` data or unified cache as it reports it
// (sysconf's _SC_LEVELn_CACHE_SIZE, which glibc reads from CPUID); 0 when it does not say.
std::uint64_t processorCacheBytes(int level);
using CacheSizeQuery = std::function<std::uint64_t(int level)>;

// Probes the machine. Reads <root>/sys/devices/system/cpu/... and <root>/proc/{cpuinfo,meminfo}
// (tests pass a fake tree); when sysfs lists no caches, asks `processorCaches` (tests pass their
// own); a missing figure falls back to sysconf or a stated assumption, so every figure is positive
// except maxClockHz, which is 0 when no source gives it.
HostFacts probeHost(const std::filesystem::path& root = "/",
                    const CacheSizeQuery& processorCaches = processorCacheBytes);

// Overwrites what a detect_host target leaves to the probe: groups = 1, cores per group = CPUs,
// working memory capacity = per-core L2 + last-level cache share, main memory capacity = RAM, clock
// = max clock when known, channel granule = floats per vector. The description and the two
// memories' notes say which facts were probed.
void applyHostFacts(Target& target, const HostFacts& facts);

} // namespace strata::target
