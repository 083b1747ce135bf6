#include "calibrate/OtherLoad.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace strata::calibrate {

std::optional<CpuTicks> parseProcStat(std::string_view firstLine) {
    std::istringstream in{std::string(firstLine)};
    std::string label;
    in >> label;
    if (label != "cpu")
        return std::nullopt;
    std::vector<double> fields;
    double value = 0;
    while (fields.size() < 8 && in >> value)
        fields.push_back(value);
    if (fields.size() < 8)
        return std::nullopt;
    const double user = fields[0], nice = fields[1], system = fields[2], idle = fields[3],
                 iowait = fields[4], irq = fields[5], softirq = fields[6], steal = fields[7];
    CpuTicks ticks;
    ticks.total = user + nice + system + idle + iowait + irq + softirq + steal;
    ticks.busy = user + nice + system + irq + softirq + steal;
    return ticks;
}

std::optional<double> parseSelfStatTicks(std::string_view stat) {
    // The name may hold spaces and parentheses: fields count from the last ')'.
    const std::size_t close = stat.rfind(')');
    if (close == std::string_view::npos)
        return std::nullopt;
    std::istringstream in{std::string(stat.substr(close + 1))};
    std::string field;
    // After the name: state (3), ppid (4), ... utime is field 14, stime 15.
    for (int index = 3; index <= 13; ++index)
        if (!(in >> field))
            return std::nullopt;
    double utime = 0, stime = 0;
    if (!(in >> utime >> stime))
        return std::nullopt;
    return utime + stime;
}

std::optional<CpuTicks> cpuTicksNow() {
    std::ifstream procStat("/proc/stat"), selfStat("/proc/self/stat");
    std::string first;
    if (!std::getline(procStat, first))
        return std::nullopt;
    const std::string self((std::istreambuf_iterator<char>(selfStat)),
                           std::istreambuf_iterator<char>());
    auto ticks = parseProcStat(first);
    const auto own = parseSelfStatTicks(self);
    if (!ticks || !own)
        return std::nullopt;
    ticks->self = *own;
    return ticks;
}

std::optional<double> otherLoadShare(const CpuTicks& before, const CpuTicks& after) {
    const double total = after.total - before.total;
    if (!(total > 0))
        return std::nullopt;
    const double others = (after.busy - before.busy) - (after.self - before.self);
    return std::clamp(others / total, 0.0, 1.0);
}

std::string busyMachineWarning(std::optional<double> share, std::string_view what,
                               std::string_view consequence) {
    if (!share || *share <= kBusyMachineShare)
        return {};
    return fmt::format("the machine was busy: other work took {:.0f}% of the CPUs while {} "
                       "measured, which slows transfers and computes unevenly (bandwidths can "
                       "halve); {}",
                       100 * *share, what, consequence);
}

} // namespace strata::calibrate
