#include "CompileCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "ScheduleArg.h"
#include "TargetArg.h"
#include "base/SafeFiles.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/CppEmitter.h"
#include "compiler/emit/JsonEmitter.h"
#include "schedule/ScheduleJson.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace strata::cli {

namespace {

struct CompileArgs {
    ModelArgs model;
    std::string target;
    ScheduleArgs schedule;
    std::vector<std::string> emit{"asm", "json"};
    std::string outputDir;
    std::vector<std::string> dumpAfter;
    bool json = false;
};

bool writeText(const std::filesystem::path& path, const std::string& text) {
    auto failed = writeFileAtomically(path.string(), text);
    if (failed)
        printDiagnostics({*failed});
    return !failed;
}

int runCompile(const CompileArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadTarget(args.target, args.model.quiet);
    if (!target) return kExitBadInput;

    auto loadedSchedule = loadSchedule(args.schedule, *graph, *target);
    if (!loadedSchedule) return kExitBadInput;
    const schedule::Schedule& s = *loadedSchedule;
    if (!withinResourceBudget(s, *graph, *target))
        return kExitFailed;
    for (const std::string& kind : args.emit) {
        if (kind != "asm" && kind != "json" && kind != "cpp") {
            std::cerr << "error: --emit: '" << kind << "' is not available (asm, json, cpp)\n";
            return kExitBadInput;
        }
    }
    for (const std::string& name : args.dumpAfter) {
        bool known = name == "all";
        for (const auto& pass : compiler::passes()) known = known || pass.name == name;
        if (!known) {
            std::cerr << "error: --dump-after: no pass named '" << name << "' (";
            for (const auto& pass : compiler::passes()) std::cerr << pass.name << (&pass == &compiler::passes().back() ? ")\n" : ", ");
            return kExitBadInput;
        }
    }

    compiler::CompileOptions options;
    options.dumpAfter = args.dumpAfter;
    auto result = compiler::compile(*graph, *target, s, options);
    if (!result) {
        printDiagnostics(result.diagnostics());
        return kExitFailed;
    }
    const compiler::Program& program = result->program;

    std::vector<std::string> files;
    if (!args.outputDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(args.outputDir, ec);
        const std::filesystem::path dir(args.outputDir);
        const std::string stem = graph->name.empty() ? "model" : graph->name;
        for (const std::string& kind : args.emit) {
            std::vector<std::pair<std::filesystem::path, std::string>> outputs;
            if (kind == "asm") {
                outputs.emplace_back(dir / (stem + ".s"), compiler::emitAssembly(program, *graph));
            } else if (kind == "json") {
                outputs.emplace_back(dir / (stem + ".program.json"), compiler::programToJson(program, *graph).dump(1) + "\n");
            } else {
                auto cpp = compiler::emitCpp(program, *graph);
                if (!cpp) {
                    printDiagnostics(cpp.diagnostics());
                    return kExitFailed;
                }
                outputs.emplace_back(dir / (stem + ".cpp"), std::move(cpp->source));
                outputs.emplace_back(dir / (stem + ".weights.bin"),
                                     std::string(reinterpret_cast<const char*>(cpp->weights.data()), cpp->weights.size()));
            }
            for (const auto& [path, text] : outputs) {
                if (!writeText(path, text))
                    return kExitFailed;
                files.push_back(path.string());
            }
        }
        auto schedulePath = dir / (stem + ".schedule.json");
        auto diags = schedule::saveScheduleFile(schedulePath.string(), s, *graph);
        if (!diags.empty()) {
            printDiagnostics(diags);
            return kExitFailed;
        }
        files.push_back(schedulePath.string());
    }

    for (const auto& record : result->passes)
        if (!record.dump.empty()) std::cerr << "; --- after " << record.name << "\n" << record.dump;
    if (args.json) {
        nlohmann::json passes = nlohmann::json::array();
        for (const auto& record : result->passes) passes.push_back({{"name", record.name}, {"ms", record.milliseconds}});
        nlohmann::json out = {{"instructions", program.instructions.size()},
                              {"transfers", program.count(compiler::InstrKind::Transfer)},
                              {"dram_bytes", program.transferredBytes()},
                              {"passes", passes},
                              {"files", files}};
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "Compiled '" << graph->name << "' for " << target->name << " (" << s.strategy << ", "
                  << s.blocks.size() << " blocks): " << program.instructions.size() << " instructions, "
                  << program.count(compiler::InstrKind::Transfer) << " transfers, " << program.transferredBytes()
                  << " bytes moved\n";
        for (const auto& record : result->passes) std::cout << "  " << record.name << "  " << record.milliseconds << " ms\n";
        for (const auto& f : files) std::cout << "  wrote " << f << "\n";
    }
    return kExitOk;
}

} // namespace

void addCompileCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<CompileArgs>();
    CLI::App* cmd = app.add_subcommand("compile", "Compile a model for a target: per-core instruction streams");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    addScheduleOptions(cmd, args->schedule);
    cmd->add_option("--emit", args->emit, "What to write: asm, json, cpp (C++ source and its weights file)")->delimiter(',')->capture_default_str();
    cmd->add_option("-o,--output", args->outputDir, "Folder for the emitted files");
    cmd->add_option("--dump-after", args->dumpAfter, "Print the IR after this pass (repeatable; 'all')")->delimiter(',');
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runCompile(*args); });
}

} // namespace strata::cli
