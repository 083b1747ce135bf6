#pragma once
// The rates of cached reads and stores by reuse distance past the core's private cache
// (target::DistanceRate, paths[].cached_reads.by_reuse_distance): a cached transfer whose lines
// its core moved farther back than its private cache holds finds them in the shared cache, or
// in memory, the more of them the farther back. Measured on the zoo's models (2026-11-28, Xeon
// VM, 2 MiB L2) such reads ran at 18 B/ns at 2-4 MiB of traffic since and 14 at 8-16 MiB: a
// slope, where one rate (the spill's) had priced them all at 11.
//
// Fitted from the compiled programs' cached transfers (reuseDistanceGraphs puts some at every
// distance from a few hundred KiB to 8 MiB) against the kind's own figures: each transfer's
// cycles per byte past its latency, row overhead and ramp, binned by distance in steps of 2 from
// kFirstReuseBin; per bin the median, made non-decreasing with distance (lines farther back never
// come faster; pool adjacent violators, weighted by the bins' counts) and no faster than the
// bandwidth; one point per bin at its geometric centre. Only the last point within the private
// cache and those past it are kept: the emulator prices by distance only transfers past it. The
// skip chains' reads within it ran at 12-14 B/cycle against the chains' 18 (their 3x3
// convolutions' working sets evict sooner than most of a model's work does), and priced so, the
// zoo's cached stores at 0.5-2 MiB came out 31% too slow (docs/ACCURACY.md).

#include "calibrate/Fit.h"
#include "target/Target.h"

#include <vector>

namespace strata::calibrate {

inline constexpr double kFirstReuseBin = 64.0 * 1024;     // bin 0: distances below twice this
inline constexpr double kMinReuseSampleBytes = 16 * 1024; // smaller ones are latency-bound
inline constexpr std::size_t kMinReuseBinSamples = 4;

// The points, by ascending distance, the first the last one within `privateCacheBytes` (its
// geometric centre at most that); empty when fewer than two bins have kMinReuseBinSamples
// transfers of at least kMinReuseSampleBytes (and, with a spill, at most its start).
std::vector<target::DistanceRate> fitReuseDistanceRates(const std::vector<TransferSample>& samples,
                                                        const TransferFit& near,
                                                        double privateCacheBytes);

} // namespace strata::calibrate
