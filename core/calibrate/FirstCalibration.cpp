#include "calibrate/FirstCalibration.h"

#include "base/SafeFiles.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <filesystem>

namespace strata::calibrate {

namespace {

// Measures this computer from the `host` preset and writes the calibrated target to `file`;
// failures become warnings in `out`.
void measureAndSave(FirstCalibration& out, const std::string& file,
                    const CalibrateOptions& options) {
    auto preset = target::resolveTarget(target::kUncalibratedHost);
    if (!preset) {
        for (Diagnostic d : preset.diagnostics())
            out.diagnostics.push_back(std::move(d));
        return;
    }
    auto report = calibrateHost(*preset, options);
    if (!report) {
        for (Diagnostic d : report.diagnostics()) {
            d.severity = Severity::Warning;
            out.diagnostics.push_back(std::move(d));
        }
        out.diagnostics.push_back(warning("calibrating this machine failed (above): `host` keeps "
                                          "the uncalibrated preset's figures"));
        return;
    }
    out.measured = true;
    for (const std::string& busy : report->warnings)
        out.diagnostics.push_back(warning(busy));
    std::error_code ignored;
    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    if (!folder.empty())
        std::filesystem::create_directories(folder, ignored);
    if (auto failed = writeFileAtomically(file, target::targetToJson(report->target))) {
        failed->severity = Severity::Warning;
        out.diagnostics.push_back(std::move(*failed));
        out.diagnostics.push_back(
            warning("the calibration could not be saved (above): `host` keeps the uncalibrated "
                    "preset's figures",
                    {.file = file}));
        return;
    }
    out.saved = true;
}

} // namespace

std::string firstCalibrationMessage(const target::HostCalibration& found) {
    std::string why = "first use";
    if (found.state == target::CalibrationState::OtherMachine)
        why = "the saved one was " + found.why;
    else if (found.state == target::CalibrationState::Unreadable)
        why = "the saved one does not load";
    return "calibrating this machine's host target (" + why + ", ~2 s); saved to " + found.file;
}

FirstCalibration ensureHostCalibrated(const std::string& file, const CalibrateOptions& options,
                                      const std::function<void(const std::string&)>& announce) {
    FirstCalibration out;
    out.found = target::inspectHostCalibration(file, target::probeHost());
    if (file.empty() || !out.found.needsCalibrating())
        return out;

    if (out.found.state == target::CalibrationState::Unreadable) {
        // Say what was wrong with the file it replaces, so a hand edit is not lost silently.
        for (Diagnostic d : out.found.problems) {
            d.severity = Severity::Warning;
            out.diagnostics.push_back(std::move(d));
        }
        out.diagnostics.push_back(
            warning("the calibrated host target " + file +
                        " does not load (above): measuring this machine again",
                    {.file = file}));
    }
    if (announce)
        announce(firstCalibrationMessage(out.found));

    measureAndSave(out, file, options);
    return out;
}

FirstCalibration recalibrateHost(const std::string& file, const CalibrateOptions& options) {
    FirstCalibration out;
    out.found = target::inspectHostCalibration(file, target::probeHost());
    if (!file.empty())
        measureAndSave(out, file, options);
    return out;
}

} // namespace strata::calibrate
