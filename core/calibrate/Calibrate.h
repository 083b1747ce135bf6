#pragma once
// Calibration of the host target (docs/CALIBRATION.md): micro-benchmarks run on this computer
// through the host runtime, and the target's timing figures fitted to them by least squares:
// per path latency and bandwidth (and those of its reads of weights and of cached data), the
// shared memory bus's bandwidth (contention), the compute throughput per op class with the
// compute overhead, and the wait and barrier overheads.

#include "base/Expected.h"
#include "calibrate/ComputeFigures.h"
#include "calibrate/CorePace.h"
#include "calibrate/Fit.h"
#include "calibrate/PathContention.h"
#include "calibrate/Remeasure.h"
#include "target/Target.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::calibrate {

struct CalibrateOptions {
    bool quick = false;             // a few seconds: fewer sizes, repeats and op scales (tests use it)
    std::uint64_t maxBytes = 64ull << 20; // largest transfer tried (also capped by the memories' capacity)
    std::function<void(const std::string&)> progress; // one line per stage, when set
    // A path whose fit is poor is measured again within these limits (Remeasure.h).
    RemeasureLimits remeasure;
};

struct PathReport {
    std::string path;
    TransferFit fit;
    std::uint64_t largestBytes = 0; // the largest size measured
    std::size_t compiledSamples = 0; // of fit.samples, transfers of the compiled single-op programs
    std::string sizeLimit;          // why not maxBytes, when smaller: "scratch holds 1048576 bytes"
    // Per target::ReadKind: the figures of the path's weight reads, cached reads and stores into
    // cached lines (weight_reads, cached_reads, cached_writes), fitted from the compiled programs'
    // transfers of that kind when they span enough sizes (kindSamples of them), else absent. The
    // Other entry stays unused: that is `fit`.
    std::array<std::optional<TransferFit>, target::kReadKinds> kindFits;
    std::array<std::size_t, target::kReadKinds> kindSamples{};
    // What the fits were made from, every transfer measured alone: the isolated programs' (one
    // per shape, its median) and then the compiled programs' (docs/CALIBRATION.md says which fit
    // uses which).
    std::vector<TransferSample> samples;
    std::size_t isolatedSamples = 0; // the first of `samples` are the isolated programs'
    // The compiled programs' weight reads, cached reads and cached writes (indexed by
    // target::ReadKind; Other unused).
    std::array<std::vector<TransferSample>, target::kReadKinds> kindData;
    // The weight reads of a model whose weights fit the last-level cache (warm_weight_reads):
    // fitted as kindFits from warmWeightGraphs' weight reads, absent as they are.
    std::optional<TransferFit> warmWeightFit;
    // Cached reads and stores (indexed by target::ReadKind: Cached, CachedWrite): their rates by
    // reuse distance (ReuseDistanceFit.h; empty when not fitted) and the transfers they were
    // fitted from.
    std::array<std::vector<target::DistanceRate>, target::kReadKinds> byReuseDistance;
    std::array<std::vector<TransferSample>, target::kReadKinds> reuseData;
    std::vector<TransferSample> warmWeightData;
    // A path reading main memory: the row overhead of rows the core itself moved a moment before
    // (resident_row_overhead_cycles), from the isolated shapes re-read out of its own cache.
    std::optional<double> residentRowOverheadCycles;
    // Fits refused (Fit.h's trustworthy) and what was written instead ("compiled transfers
    // (bandwidth uncertain by +-40%): kept the isolated programs' latency and bandwidth"), and
    // figures written although uncertain ("weight reads (latency uncertain by +-30%): written
    // all the same").
    std::vector<std::string> refused;
    // Its transfers on two cores at once against one (the contention programs): when the large
    // sizes slow down more than the small ones, a resource of this bandwidth that only the path
    // uses (`<path>_contention`, scope chip) is added to the target.
    PathContentionFit contention;
    // Per other path: how much slower this path's bytes move while the other core moves bytes
    // on it (ConcurrentSlowdownFit.h; target::TransferPath::concurrentSlowdown). Only factors > 1.
    std::map<std::string, double> concurrentSlowdown;
};

// One core's transfers on `path` with the other core idle (`otherPath` empty) or issuing its own
// transfers of the same size on `otherPath` at the same time: the contention programs
// (docs/CALIBRATION.md), per-event medians in cycles.
struct PairedTransfers {
    std::string path;
    std::string otherPath;
    double bytes = 0;
    double cycles = 0;
};

struct CalibrationReport {
    target::Target target;          // the calibrated description (calibrated = true)
    std::vector<PathReport> paths;
    std::vector<PairedTransfers> paired; // the contention programs' transfers
    std::string sharedResource;     // the resource all paths share ("" when they share none)
    SharedBandwidthFit shared;
    ComputeFit compute;
    // Computes on one core with the others idle, against the fit above (made with every core
    // busy): target::Target::oneCoreWorkFactor, from oneCoreSamples computes (Fit.h).
    double oneCoreWorkFactor = 1;
    std::size_t oneCoreSamples = 0;
    std::vector<std::string> computeSkipped; // op classes that could not be run, with why
    double gapNs = 0;               // median time between two instructions of one stream
    // The last working core's lateness at a barrier, from joinSamples barriers of the compiled
    // programs on every core (JoinSkew.h; target::Target::joinSkew). None with one core.
    target::JoinSkew joinSkew;
    std::size_t joinSamples = 0;
    // A reorder's cost per byte of its boxes beyond the private cache, from reorderSamples
    // reorders of the compiled programs (ReorderFit.h; 0: not fitted).
    double reorderFarByteCycles = 0;
    std::size_t reorderSamples = 0;
    double waitCycles = 0;
    double barrierCycles = 0;
    int cores = 1;
    double seconds = 0;             // wall time of the measurements
    // Share of the CPUs' time other normal-priority work and the hypervisor took while the
    // programs ran (OtherLoad.h); unknown off Linux. Above kBusyMachineShare, `warnings` says
    // the figures may be off.
    std::optional<double> otherLoad;
    // Each core's time for the same copies, median over the rounds (CorePace.h); none with one
    // core. Above kUnevenCoresSpread, `warnings` says one core was slowed by other work.
    std::optional<CorePace> corePace;
    // The speed check's median times over the rounds (MachineSpeed.h); empty when it did not run.
    target::SpeedCheckTimes speedChecks;
    std::vector<std::string> warnings;
    // Paths measured again because their fit was poor, or not although it was (Remeasure.h):
    // "re-measured 'load' once: RMS relative residual 76% -> 24%, kept the 24% fit".
    std::vector<std::string> remeasured;
};

// Runs the measurements on `host` (a description of this computer: `host` preset or a file) and
// fits its figures; the returned target is `host` with them replaced, `calibrated` set, and the
// paths marked issuer_busy (the runtime's copies run on the issuing core). Errors: a target
// the runtime cannot run (not host-like), or no measurement of any path succeeding.
Expected<CalibrationReport> calibrateHost(const target::Target& host, const CalibrateOptions& options = {});


} // namespace strata::calibrate
