#include "target/CalibratedHost.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace strata::target {

std::string defaultCalibratedHostFile() {
    std::filesystem::path config;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        config = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        config = std::filesystem::path(home) / ".config";
    else
        return {};
    return (config / "strata" / "host.calibrated.json").string();
}

ResolveOptions userResolveOptions() {
    ResolveOptions options;
    options.calibratedHostFile = defaultCalibratedHostFile();
    return options;
}

std::string formatUtc(std::chrono::system_clock::time_point time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::optional<std::chrono::system_clock::time_point> parseUtc(std::string_view text) {
    std::tm utc{};
    char zone = 0;
    const std::string copy(text);
    if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &utc.tm_year, &utc.tm_mon,
                    &utc.tm_mday, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &zone) != 7 ||
        zone != 'Z' || copy.size() != 20)
        return std::nullopt;
    utc.tm_year -= 1900;
    utc.tm_mon -= 1;
    const std::time_t seconds = ::timegm(&utc);
    if (seconds == static_cast<std::time_t>(-1))
        return std::nullopt;
    return std::chrono::system_clock::from_time_t(seconds);
}

CalibrationStamp calibrationStampFor(const HostFacts& machine,
                                     std::chrono::system_clock::time_point now) {
    return {.cpuModel = machine.cpuModel, .cores = machine.cpus, .calibratedAt = formatUtc(now)};
}

HostCalibration inspectHostCalibration(const std::string& file, const HostFacts& machine,
                                       std::chrono::system_clock::time_point now,
                                       int staleAfterDays) {
    HostCalibration out;
    out.file = file;
    std::error_code unreadable;
    if (file.empty() || !std::filesystem::is_regular_file(file, unreadable))
        return out;

    auto loaded = loadTargetFile(file, &out.problems);
    if (!loaded) {
        out.state = CalibrationState::Unreadable;
        out.problems = loaded.takeDiagnostics();
        return out;
    }
    if (!loaded->calibrated || loaded->name != "host") {
        out.state = CalibrationState::Unreadable;
        out.problems.push_back(error(
            "not a calibrated host target (it needs \"name\": \"host\" and \"calibrated\": true)",
            {.file = file}));
        return out;
    }
    const std::optional<CalibrationStamp>& stamp = loaded->calibration;
    if (stamp && (stamp->cpuModel != machine.cpuModel || stamp->cores != machine.cpus)) {
        out.state = CalibrationState::OtherMachine;
        out.why = "made on " + stamp->cpuModel + " with " + std::to_string(stamp->cores) +
                  " cores; this is " + machine.cpuModel + " with " + std::to_string(machine.cpus);
        return out;
    }
    out.state = CalibrationState::Current;
    if (!stamp) {
        out.state = CalibrationState::Stale;
        out.why = "it does not say which machine made it or when (written by an older Strata)";
    } else if (const auto made = parseUtc(stamp->calibratedAt); !made) {
        out.state = CalibrationState::Stale;
        out.why = "its date \"" + stamp->calibratedAt + "\" is not a UTC time";
    } else if (const auto days =
                   std::chrono::duration_cast<std::chrono::hours>(now - *made).count() / 24;
               days > staleAfterDays) {
        out.state = CalibrationState::Stale;
        out.why = "it is " + std::to_string(days) + " days old";
    } else if (const std::uint64_t probed = machine.scratchBytesPerCore();
               probed > 0 && loaded->workingMemoryBytes() != probed) {
        // Older Strata sized the scratch to the L2 alone; its tiles were far too small.
        out.state = CalibrationState::Stale;
        const auto mib = [](std::uint64_t bytes) {
            char text[32];
            std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
            return std::string(text);
        };
        out.why = "it was made for a scratch of " + mib(loaded->workingMemoryBytes()) +
                  " per core, and this machine's caches hold " + mib(probed) + " per core";
    }
    out.target = std::move(loaded).value();
    return out;
}

std::string describeCalibrationDate(const Target& target) {
    if (!target.calibrated)
        return "uncalibrated figures";
    if (!target.calibration)
        return "calibrated (machine and date unknown)";
    std::string when = target.calibration->calibratedAt;
    if (when.size() == 20)
        when = when.substr(0, 10) + " " + when.substr(11, 5) + " UTC";
    return "calibrated " + when;
}

std::string describeCalibration(const Target& target) {
    if (!target.calibrated || !target.calibration)
        return describeCalibrationDate(target);
    const CalibrationStamp& stamp = *target.calibration;
    return describeCalibrationDate(target) + " on " + stamp.cpuModel + " (" +
           std::to_string(stamp.cores) + " cores)";
}

} // namespace strata::target
