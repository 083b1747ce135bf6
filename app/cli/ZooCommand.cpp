#include "ZooCommand.h"

#include "ExitCodes.h"
#include "ZooStages.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace strata::cli {

namespace {

struct ZooArgs {
    std::vector<std::string> paths;
    bool json = false;
};

constexpr const char* kStageNames[] = {"import", "schedule", "compile", "emulate", "run"};

// The models named on the command line: files as given, folders' *.onnx sorted by name.
std::vector<std::string> modelPaths(const std::vector<std::string>& paths, bool& badPath) {
    std::vector<std::string> models;
    for (const auto& path : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            std::vector<std::string> found;
            for (const auto& entry : std::filesystem::directory_iterator(path, ec))
                if (entry.is_regular_file() && entry.path().extension() == ".onnx")
                    found.push_back(entry.path().string());
            std::sort(found.begin(), found.end());
            if (found.empty())
                std::cerr << "warning: no .onnx file in folder '" << path << "'\n";
            models.insert(models.end(), found.begin(), found.end());
        } else if (std::filesystem::exists(path, ec)) {
            models.push_back(path);
        } else {
            std::cerr << "error: '" << path << "' is neither a model file nor a folder\n";
            badPath = true;
        }
    }
    return models;
}

std::string stageTime(const ZooRow& row, const std::string& stage) {
    for (const auto& s : row.stages)
        if (s.name == stage)
            return s.ms >= 1000 ? fmt::format("{:.2f} s", s.ms / 1000)
                                : fmt::format("{:.0f} ms", s.ms);
    return "-";
}

std::string outcome(const ZooRow& row) {
    if (row.ok())
        return "ok";
    std::string where = row.failedStage;
    if (!row.failedCase.empty()) {
        const auto cases = row.failedStage == "run" ? zooRunStrategies().size()
                                                    : zooTargets().size() * zooStrategies().size();
        where += fmt::format(" ({}; {} of {} cases)", row.failedCase,
                             row.failedCases.at(row.failedStage), cases);
    }
    return where + ": " + row.diagnostic;
}

void printHeader() {
    std::cout << fmt::format("{:<24} {:>5} {:>9} {:>9} {:>9} {:>9} {:>9}  {}\n", "model", "ops",
                             "import", "schedule", "compile", "emulate", "run",
                             "first failing stage");
}

void printRow(const ZooRow& row) {
    std::cout << fmt::format("{:<24} {:>5} {:>9} {:>9} {:>9} {:>9} {:>9}  {}\n", row.model, row.ops,
                             stageTime(row, "import"), stageTime(row, "schedule"),
                             stageTime(row, "compile"), stageTime(row, "emulate"),
                             stageTime(row, "run"), outcome(row))
              << std::flush;
}

nlohmann::ordered_json rowJson(const ZooRow& row) {
    nlohmann::ordered_json stages = nlohmann::ordered_json::object();
    for (const auto& s : row.stages)
        stages[s.name] = s.ms;
    nlohmann::ordered_json types = nlohmann::ordered_json::object();
    for (const auto& [type, count] : row.opTypes)
        types[type] = count;
    nlohmann::ordered_json j = {{"model", row.model}, {"path", row.path},   {"ops", row.ops},
                                {"op_types", types},  {"stage_ms", stages}, {"ok", row.ok()}};
    if (!row.ok())
        j["failure"] = {
            {"stage", row.failedStage}, {"case", row.failedCase}, {"diagnostic", row.diagnostic}};
    if (!row.failedCases.empty())
        j["failed_cases"] = row.failedCases; // per stage
    if (row.emulatedHostNs > 0)
        j["host_rules_emulated_ns"] = row.emulatedHostNs;
    if (row.measuredHostNs > 0)
        j["host_rules_measured_ns"] = row.measuredHostNs;
    return j;
}

int runZoo(const ZooArgs& args) {
    bool badPath = false;
    const auto models = modelPaths(args.paths, badPath);
    if (badPath)
        return kExitBadInput;
    if (models.empty()) {
        std::cerr << "error: no model to run\n";
        return kExitBadInput;
    }
    if (!args.json)
        printHeader();
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    int passed = 0;
    for (const auto& path : models) {
        const ZooRow row = runZooModel(path);
        passed += row.ok();
        if (args.json)
            rows.push_back(rowJson(row));
        else
            printRow(row);
    }
    if (args.json) {
        nlohmann::ordered_json stages = nlohmann::ordered_json::array();
        for (const char* s : kStageNames)
            stages.push_back(s);
        nlohmann::ordered_json out = {{"targets", zooTargets()},
                                      {"strategies", zooStrategies()},
                                      {"run_strategies", zooRunStrategies()},
                                      {"stages", stages},
                                      {"passed", passed},
                                      {"models", rows}};
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << fmt::format("\n{} of {} models pass every stage\n", passed, models.size());
    }
    return passed == int(models.size()) ? kExitOk : kExitFailed;
}

} // namespace

void addZooCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ZooArgs>();
    CLI::App* cmd = app.add_subcommand("zoo", "Run models through import, schedule, compile, "
                                              "emulate and a checked host run; one row per model");
    cmd->add_option("models", args->paths, "Model files, or folders whose *.onnx files are all run")
        ->required();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of the table");
    cmd->callback([args, &exitCode] { exitCode = runZoo(*args); });
}

} // namespace strata::cli
