#include "calibrate/CalibratedTarget.h"

#include "calibrate/BenchPrograms.h"
#include "calibrate/ComputeFigures.h"
#include "calibrate/PathContention.h"
#include "target/CalibratedHost.h"
#include "target/HostProbe.h"

#include <chrono>
#include <fmt/format.h>

namespace strata::calibrate {

target::Target calibratedTarget(const target::Target& host, const CalibrationReport& report,
                                std::uint64_t lastLevelBytes) {
    target::Target t = host;
    const double gap = report.gapNs * host.clockHz / 1e9;
    for (const PathReport& p : report.paths) {
        target::TransferPath* path = nullptr;
        for (auto& candidate : t.paths)
            if (candidate.name == p.path)
                path = &candidate;
        // The gap after a copy belongs to it: the emulator starts the next instruction at the
        // completion.
        path->latencyCycles = p.fit.latencyCycles + gap;
        path->rowOverheadCycles = p.fit.rowOverheadCycles;
        path->bytesPerCycle = p.fit.bytesPerCycle;
        path->issuerBusy = true;
        path->residentRowOverheadCycles = p.residentRowOverheadCycles;
        path->concurrentSlowdown = p.concurrentSlowdown;
        path->ramp = {p.fit.rampBytes, p.fit.rampBytesPerCycle, p.fit.spillBytes,
                      p.fit.spillBytesPerCycle};
        for (const target::ReadKind kind : target::kOwnFigureKinds) {
            auto& figures = kind == target::ReadKind::Weight        ? path->weightReads
                            : kind == target::ReadKind::Cached      ? path->cachedReads
                            : kind == target::ReadKind::CachedWrite ? path->cachedWrites
                                                                    : path->sharedReads;
            figures.reset();
            if (const auto& fit = p.kindFits[static_cast<std::size_t>(kind)])
                figures = target::ReadFigures{fit->bytesPerCycle,
                                              fit->latencyCycles + gap,
                                              {fit->rampBytes, fit->rampBytesPerCycle,
                                               fit->spillBytes, fit->spillBytesPerCycle},
                                              p.byReuseDistance[static_cast<std::size_t>(kind)]};
        }
        // Warm weight figures apply to models whose weights fit the last-level cache.
        path->warmWeightReads.reset();
        path->warmWeightBytes = 0;
        if (const auto& fit = p.warmWeightFit; fit && lastLevelBytes > 0) {
            path->warmWeightReads = target::ReadFigures{
                fit->bytesPerCycle,
                fit->latencyCycles + gap,
                {fit->rampBytes, fit->rampBytesPerCycle, fit->spillBytes, fit->spillBytesPerCycle},
                {}};
            path->warmWeightBytes = double(lastLevelBytes);
        }
        path->note = fmt::format(
            "calibrated: {} transfers of 64..{} bytes, rows of {} bytes and up, RMS relative "
            "residual {:.1f}% ({:.1f}% over the shapes' medians)",
            p.fit.samples, p.largestBytes, transferRunBytes(*path, t.mainMemory).back(),
            100 * p.fit.rmsRelativeError, 100 * p.fit.shapeRmsRelativeError);
    }
    for (const PathReport& p : report.paths)
        setPathContention(t, p.path, p.contention);
    if (!report.sharedResource.empty() && report.shared.bytesPerCycle > 0)
        for (auto& r : t.resources)
            if (r.name == report.sharedResource) {
                r.bytesPerCycle = report.shared.bytesPerCycle;
                r.note = fmt::format("calibrated: 2..{} cores transferring at once, RMS "
                                     "relative residual {:.1f}%",
                                     report.cores, 100 * report.shared.rmsRelativeError);
            }
    writeComputeFigures(report.compute, t);
    t.overheads.computeCycles = report.compute.overheadCycles + gap;
    t.oneCoreWorkFactor = report.oneCoreWorkFactor;
    t.joinSkew = report.joinSkew;
    t.overheads.waitCycles = report.waitCycles + gap;
    t.overheads.barrierCycles = report.barrierCycles + gap;
    t.overheads.transferIssueCycles = gap;
    t.calibrated = true;
    // Which machine and when: `host` ignores it on another CPU and offers it again when old.
    t.calibration =
        target::calibrationStampFor(target::probeHost(), std::chrono::system_clock::now());
    t.calibration->speedChecks = report.speedChecks;
    t.description += fmt::format(
        " Calibrated on this machine by `strata-cli calibrate` ({} cores, {} clock cycles "
        "per ns).",
        report.cores, host.clockHz / 1e9);
    return t;
}

} // namespace strata::calibrate
