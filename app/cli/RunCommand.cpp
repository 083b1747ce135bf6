#include "RunCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "OutputCheck.h"
#include "ScheduleArg.h"
#include "TargetArg.h"
#include "TraceFigures.h"
#include "base/SafeFiles.h"
#include "base/Units.h"
#include "flow/Flow.h"
#include "reference/Evaluator.h"
#include "trace/TraceJson.h"
#include "trace/TraceSummary.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace strata::cli {
namespace {

struct RunArgs {
    ModelArgs model;
    ScheduleArgs schedule;
    std::string inputPath;
    std::string tracePath;
    int repeat = 1;
    bool check = false;
    bool json = false;
};

// --input: the graph inputs' raw little-endian elements, one after another (as the generated
// C++'s input.bin).
std::optional<std::vector<reference::Tensor>> readInputs(const std::string& path, const ir::Graph& graph) {
    if (auto refused = checkReadableFile(path, "input")) {
        std::cerr << "error: cannot open input file '" << path << "': " << refused->message << "\n";
        return std::nullopt;
    }
    std::uint64_t expected = 0;
    for (ir::ValueId id : graph.inputs) expected += graph.value(id).bytes();
    // The size is checked before reading, so a huge file is never read into memory.
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in) {
        std::cerr << "error: cannot open input file '" << path << "'\n";
        return std::nullopt;
    }
    const std::string bytes = size == expected ? std::string{std::istreambuf_iterator<char>(in),
                                                             std::istreambuf_iterator<char>()}
                                               : std::string();
    if (size != expected || bytes.size() != expected) {
        std::string layout;
        for (ir::ValueId id : graph.inputs) {
            const ir::Value& v = graph.value(id);
            layout += fmt::format("{}{} {} {} ({} bytes)", layout.empty() ? "" : ", ", v.name, ir::dtypeName(v.dtype),
                                  ir::shapeToString(v.shape), v.bytes());
        }
        std::cerr << fmt::format(
            "error: input file '{}' holds {} bytes; the model's inputs need {}: {}\n", path, size,
            expected, layout);
        return std::nullopt;
    }
    std::vector<reference::Tensor> out;
    std::size_t at = 0;
    for (ir::ValueId id : graph.inputs) {
        reference::Tensor t = reference::zerosLike(graph.value(id));
        std::memcpy(t.bytes.data(), bytes.data() + at, t.bytes.size());
        at += t.bytes.size();
        out.push_back(std::move(t));
    }
    return out;
}

// Every tensor of the graph, as the runtime and the reference check may hold them at once:
// refused over this computer's physical memory rather than failing on bad_alloc half-way.
bool fitsInMemory(const ir::Graph& graph) {
    std::uint64_t needed = 0;
    for (const ir::Value& v : graph.values)
        if (__builtin_add_overflow(needed, v.bytes(), &needed))
            needed = UINT64_MAX;
    const auto pages = static_cast<std::uint64_t>(std::max(0L, ::sysconf(_SC_PHYS_PAGES)));
    const auto pageBytes = static_cast<std::uint64_t>(std::max(0L, ::sysconf(_SC_PAGESIZE)));
    const std::uint64_t physical = pages * pageBytes;
    if (physical == 0 || needed <= physical)
        return true;
    std::cerr << fmt::format(
        "error: running '{}' needs {} for its tensors; this computer has {} of memory\n",
        graph.name, formatBytes(needed), formatBytes(physical));
    return false;
}

int runRun(const RunArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadTarget("host", args.model.quiet);
    if (!target) return kExitBadInput;
    if (args.repeat < 1) {
        std::cerr << "error: --repeat must be at least 1\n";
        return kExitBadInput;
    }
    if (!fitsInMemory(*graph))
        return kExitFailed;
    std::vector<reference::Tensor> inputs;
    if (!args.inputPath.empty()) {
        auto read = readInputs(args.inputPath, *graph);
        if (!read) return kExitBadInput;
        inputs = std::move(*read);
    } else {
        inputs = reference::sampleInputs(*graph, kCheckInputSeed);
    }
    auto loadedSchedule = loadSchedule(args.schedule, *graph, *target);
    if (!loadedSchedule) return kExitBadInput;
    if (!withinResourceBudget(*loadedSchedule, *graph, *target, /*forRun=*/true))
        return kExitFailed;
    flow::Options options;
    options.predict = false; // measured only: `emulate` predicts
    options.run.repeat = args.repeat;
    const flow::Result measured = flow::measure({*graph, *target, *loadedSchedule}, inputs, options);
    if (!measured.ok()) {
        printDiagnostics(measured.diagnostics);
        return kExitFailed;
    }
    const runtime::RunResult& run = *measured.measured;

    OutputCheck check;
    if (args.check) {
        auto expected = reference::evaluate(*graph, inputs);
        if (!expected) {
            std::cerr << "error: --check: the reference cannot evaluate the model\n";
            printDiagnostics(expected.diagnostics());
            return kExitFailed;
        }
        check = checkOutputs(*graph, run.outputs, *expected);
        for (const std::string& difference : check.differences)
            std::cerr << "error: --check: " << difference << "\n";
    }
    const double maxAbs = check.maxAbs;
    const double largest = check.largest;
    const bool matches = check.matches();

    std::vector<double> totals = run.totalsNs;
    std::sort(totals.begin(), totals.end());
    const double median = totals[(totals.size() - 1) / 2];
    const trace::TraceSummary& summary = measured.measuredSummary;
    if (!args.tracePath.empty()) {
        auto failed = writeFileAtomically(
            args.tracePath, [&](std::ostream& o) { trace::writeTraceJson(run.trace, o); });
        if (failed) {
            printDiagnostics({*failed});
            return kExitFailed;
        }
    }
    if (args.json) {
        nlohmann::ordered_json j = {{"source", "measured"}, {"total_ns", median}, {"events", run.trace.events.size()}};
        if (args.check) {
            j["max_abs_error"] = maxAbs;
            j["largest_reference_value"] = largest;
        }
        j["blocks"] = blocksJson(summary);
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << fmt::format("Ran '{}' on this machine ({} cores, {} blocks): {} events, total {} (measured, median "
                                 "of {})\n",
                                 run.trace.modelName, measured.program().cores, loadedSchedule->blocks.size(),
                                 run.trace.events.size(), duration(std::llround(median * 1e3)), totals.size());
        if (args.check)
            std::cout << fmt::format("check: {} (max abs error {:.3g}, largest reference value "
                                     "{:.3g}, atol {} x that, rtol {})\n",
                                     matches ? "outputs match the reference" : "OUTPUTS DIFFER",
                                     maxAbs, largest, kCheckAbsTolerance, kCheckRelTolerance);
        // Untrained exports can end in a zero-initialised layer (torchvision's ViT head): then
        // a match says nothing about the layers before it.
        if (args.check && largest == 0)
            std::cout << "note: every reference output is zero, so the check shows only that the "
                         "outputs are zero too (a zero-initialised last layer?); it says nothing "
                         "about the layers before\n";
        if (!args.tracePath.empty()) std::cout << "wrote " << args.tracePath << "\n";
    }
    return matches ? kExitOk : kExitFailed;
}

} // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<RunArgs>();
    CLI::App* cmd = app.add_subcommand("run", "Run the compiled model on this machine and measure every instruction");
    addModelOptions(cmd, args->model);
    addScheduleOptions(cmd, args->schedule);
    cmd->add_option("--input", args->inputPath,
                    "Input file: the graph inputs' raw little-endian elements, one after another (default: "
                    "deterministic values)");
    cmd->add_flag("--check", args->check, "Compare the outputs with the reference evaluation of the unfused graph");
    cmd->add_option("--repeat", args->repeat, "Runs; the trace and total are the median run's")->default_val(1);
    cmd->add_option("--trace", args->tracePath, "Write the measured timeline as Chrome trace JSON");
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runRun(*args); });
}

} // namespace strata::cli
