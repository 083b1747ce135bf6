#pragma once
// How busy the rest of the machine was while calibration measured (docs/CALIBRATION.md): other
// processes (niced ones too: they take a core whenever a worker thread blocks at a barrier, and
// share caches and memory bandwidth), and time the hypervisor stole from this VM's CPUs, slow
// the measured programs for seconds at a time (halving a path's bandwidth), which no median over
// rounds removes. Calibration reports the share and warns when it is large. Linux /proc only;
// elsewhere the share is unknown.

#include <optional>
#include <string>
#include <string_view>

namespace strata::calibrate {

// Clock ticks from /proc/stat's "cpu" line (all CPUs) and /proc/self/stat.
struct CpuTicks {
    double total = 0; // every state
    double busy = 0;  // every state but idle and iowait (steal included)
    double self = 0;  // this process's user + system time
};

// Parses the first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal ...").
std::optional<CpuTicks> parseProcStat(std::string_view firstLine);
// Parses /proc/self/stat's utime and stime (fields 14 and 15, after the parenthesised name).
std::optional<double> parseSelfStatTicks(std::string_view stat);

// Now, from /proc; nullopt when it cannot be read.
std::optional<CpuTicks> cpuTicksNow();

// The share (0..1) of all CPUs' time between `before` and `after` that other processes and the
// hypervisor took; nullopt when no time passed.
std::optional<double> otherLoadShare(const CpuTicks& before, const CpuTicks& after);

// Above this share the report warns that the figures may be off.
inline constexpr double kBusyMachineShare = 0.15;

// What to tell a user when other work took more than kBusyMachineShare of the CPUs while
// `what` measured ("calibration", "the run"), ending with `consequence`; empty otherwise.
std::string busyMachineWarning(std::optional<double> share, std::string_view what,
                               std::string_view consequence);

} // namespace strata::calibrate
