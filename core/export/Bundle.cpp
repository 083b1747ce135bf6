#include "export/Bundle.h"

#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/CppEmitter.h"
#include "compiler/emit/JsonEmitter.h"
#include "export/BundleReport.h"
#include "export/StagedFolder.h"
#include "schedule/ScheduleJson.h"
#include "trace/TraceCsv.h"
#include "trace/TraceJson.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace strata::exporting {
namespace {

namespace fs = std::filesystem;

constexpr const char* kManifestWhat = "manifest: what each file is";
constexpr const char* kReportWhat = "summary report";

// Writes one file of the staging folder (core/export/StagedFolder.h makes the bundle whole).
bool writeFile(const fs::path& path, const void* data, std::size_t size, std::vector<Diagnostic>& errors) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.flush();
    if (!out) {
        errors.push_back(error(fmt::format("export: cannot write {}: {}", path.filename().string(),
                                           errno ? std::strerror(errno) : "unknown error")));
        return false;
    }
    return true;
}

// Test hook (tests/core/export/BundleKillTest.cpp): with STRATA_TEST_EXPORT_KILL_AFTER=N in the
// environment the process kills itself with SIGKILL once N files of a bundle are written, as
// `kill -9` or a power cut half-way through an export would. Read each time: a test sets it in a
// forked child.
void killIfAskedForTest(std::size_t written) {
    const char* after = std::getenv("STRATA_TEST_EXPORT_KILL_AFTER");
    if (after && std::strtoull(after, nullptr, 10) == written)
        std::raise(SIGKILL);
}

class Writer {
  public:
    explicit Writer(fs::path dir) : m_dir(std::move(dir)) {}

    void text(const std::string& name, const std::string& what, const std::string& content) {
        bytes(name, what, content.data(), content.size());
    }
    void bytes(const std::string& name, const std::string& what, const void* data, std::size_t size) {
        if (writeFile(m_dir / name, data, size, errors)) files.push_back({name, what});
        killIfAskedForTest(files.size());
    }

    std::vector<BundleFile> files;
    std::vector<Diagnostic> errors;

  private:
    fs::path m_dir;
};

std::string csvOf(const trace::Trace& trace) {
    std::ostringstream out;
    trace::writeTraceCsv(trace, out);
    return out.str();
}

void writeTrace(Writer& w, const trace::Trace& trace, const std::string& stem) {
    const std::string source(trace::sourceName(trace.source));
    w.text(stem + ".trace.json", fmt::format("{} timeline, Chrome trace-event JSON (Perfetto, Strata)", source),
           trace::traceToJson(trace));
    w.text(stem + ".csv", fmt::format("{} timeline, one row per event", source), csvOf(trace));
}

std::string manifest(const BundleInput& in, const std::vector<BundleFile>& files) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& f : files) list.push_back({{"name", f.name}, {"what", f.what}});
    list.push_back({{"name", "bundle.json"}, {"what", kManifestWhat}});
    list.push_back({{"name", "report.md"}, {"what", kReportWhat}});
    nlohmann::ordered_json j = {{"strata_bundle", kBundleSchemaVersion},
                                {"model", in.graph->name},
                                {"model_hash", in.program->modelHash},
                                {"target", in.target->name},
                                {"strategy", in.schedule->strategy},
                                {"files", list}};
    return j.dump(2) + "\n";
}

} // namespace

Expected<Bundle> writeBundle(const BundleInput& in, const fs::path& dir) {
    if (!in.graph || !in.target || !in.schedule || !in.program)
        return error("export: a bundle needs the graph, target, schedule and compiled program");
    auto staged = StagedFolder::begin(dir, "bundle.json", in.plots);
    if (!staged)
        return staged.takeDiagnostics();

    const std::string stem = in.graph->name.empty() ? "model" : in.graph->name;
    Bundle bundle;
    Writer w(staged->path());
    w.text(stem + ".s", "assembly (docs/ISA.md)", compiler::emitAssembly(*in.program, *in.graph));
    w.text(stem + ".program.json", "the program as JSON (docs/ISA.md)",
           compiler::programToJson(*in.program, *in.graph).dump(1) + "\n");
    if (auto cpp = compiler::emitCpp(*in.program, *in.graph)) {
        w.text(stem + ".cpp", "generated C++ (docs/CODEGEN.md): g++ -O2 -std=c++20", cpp->source);
        w.bytes(stem + ".weights.bin", "the weights the generated C++ reads", cpp->weights.data(), cpp->weights.size());
    } else {
        bundle.notes.push_back(note("export: no generated C++ for this program"));
        for (const Diagnostic& d : cpp.diagnostics()) bundle.notes.push_back(d);
    }
    w.text("schedule.json", "the schedule (docs/SCHEDULES.md)", schedule::scheduleToJson(*in.schedule, *in.graph));
    if (in.emulated) writeTrace(w, *in.emulated, "emulated");
    if (in.measured) writeTrace(w, *in.measured, "measured");
    for (const std::string& plot : in.plots) w.files.push_back({plot, "plot"});
    w.text("bundle.json", kManifestWhat, manifest(in, w.files));
    w.text("report.md", kReportWhat, bundleReport(in, w.files));

    if (!w.errors.empty()) return w.errors;
    if (auto failed = staged->commit())
        return *failed;
    bundle.files = std::move(w.files);
    return bundle;
}

} // namespace strata::exporting
