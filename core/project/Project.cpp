#include "project/Project.h"

#include "base/JsonReader.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace strata::project {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// `path` relative to `dir` when it lies inside it, else as it is.
std::string relativeTo(const std::string& path, const std::string& dir) {
    if (path.empty() || dir.empty())
        return path;
    const fs::path absolute = fs::path(path).lexically_normal();
    const fs::path base = fs::path(dir).lexically_normal();
    const fs::path relative = absolute.lexically_relative(base);
    if (relative.empty() || *relative.begin() == "..")
        return path;
    return relative.generic_string();
}

// Relative paths in a project are relative to its folder.
std::string resolve(const std::string& path, const fs::path& dir) {
    if (path.empty() || fs::path(path).is_absolute())
        return path;
    return (dir / path).lexically_normal().string();
}

// A target is a file when it names one (a preset name has no '/' and no ".json").
bool isTargetFile(const std::string& target) {
    return target.find('/') != std::string::npos ||
           (target.size() > 5 && target.ends_with(".json"));
}

Expected<Project> projectFromDocument(const Json& doc, const std::string& file) {
    std::vector<Diagnostic> diags;
    json::FieldReader root(doc, "", file, diags);
    if (!root.isObject())
        return diags;
    if (!root.has("strata_project")) {
        root.error("strata_project", "not a Strata project (no \"strata_project\" version)");
        return diags;
    }
    auto version = root.integer("strata_project");
    if (!version)
        return diags;
    if (*version > kProjectSchemaVersion) {
        root.error("strata_project", "written by a newer Strata (project schema " +
                                         std::to_string(*version) + ", this build reads " +
                                         std::to_string(kProjectSchemaVersion) + ")");
        return diags;
    }
    if (*version < 1)
        root.error("strata_project", "schema version must be at least 1");
    root.warnUnknownKeys(
        {"strata_project", "model", "target", "strategy", "schedule", "view", "traces", "runs"});

    const fs::path dir = fs::path(file).parent_path();
    Project p;
    json::FieldReader model = root.object("model");
    if (auto path = model.string("path")) {
        if (path->empty())
            model.error("path", "the model path is empty");
        p.modelPath = resolve(*path, dir);
    }
    p.modelHash = model.stringOr("content_hash", "");
    model.warnUnknownKeys({"path", "content_hash"});

    p.target = root.stringOr("target", "");
    if (isTargetFile(p.target))
        p.target = resolve(p.target, dir);
    p.strategy = root.stringOr("strategy", "");

    if (root.has("schedule")) {
        const Json& schedule = doc["schedule"];
        if (schedule.is_null()) {
            // none saved
        } else if (!schedule.is_object()) {
            root.error("schedule", "expected a schedule document (an object), got " +
                                       json::describeType(schedule));
        } else if (!schedule.contains("strata_schedule")) {
            root.error("schedule", "not a schedule document (no \"strata_schedule\" version)");
        } else {
            p.scheduleJson = schedule.dump(2) + "\n";
        }
    }

    if (root.has("view")) {
        json::FieldReader view = root.object("view");
        p.view.tab = view.stringOr("tab", p.view.tab);
        p.view.zoom = view.numberOr("zoom", 0);
        if (p.view.zoom < 0) {
            view.error("zoom", "must not be negative");
            p.view.zoom = 0;
        }
        const std::int64_t block = view.integerOr("selected_block", -1);
        if (block < -1 || block > std::numeric_limits<int>::max())
            view.error("selected_block", "must be a block id or -1");
        else
            p.view.selectedBlock = static_cast<int>(block);
        p.view.selectedOp = view.stringOr("selected_op", "");
        view.warnUnknownKeys({"tab", "zoom", "selected_block", "selected_op"});
    }

    // One trace of run `run`, read from `t`.
    auto readTrace = [&](json::FieldReader& t, int run, const std::string& scheduleJson) {
        TraceRef ref;
        if (auto path = t.string("path"))
            ref.path = resolve(*path, dir);
        ref.source = t.stringOr("source", "emulated");
        if (ref.source != "emulated" && ref.source != "measured")
            t.error("source", "must be \"emulated\" or \"measured\", got \"" + ref.source + "\"");
        ref.label = t.stringOr("label", "");
        ref.scheduleHash = t.stringOr("schedule_hash", "");
        ref.run = run;
        ref.scheduleJson = scheduleJson;
        t.warnUnknownKeys({"path", "source", "label", "schedule_hash"});
        p.traces.push_back(std::move(ref));
    };
    // Files from before runs were kept: a flat list, all of one run.
    if (const Json* traces = root.optionalArray("traces")) {
        for (std::size_t i = 0; i < traces->size(); ++i) {
            json::FieldReader t = root.element(*traces, i, "traces");
            if (t.isObject())
                readTrace(t, 0, {});
        }
    }
    if (const Json* runs = root.optionalArray("runs")) {
        const int first = runCount(p.traces);
        for (std::size_t i = 0; i < runs->size(); ++i) {
            json::FieldReader run = root.element(*runs, i, "runs");
            if (!run.isObject())
                continue;
            std::string scheduleJson;
            if (const Json& schedule = (*runs)[i]; schedule.contains("schedule")) {
                const Json& doc = schedule["schedule"];
                if (doc.is_object() && doc.contains("strata_schedule"))
                    scheduleJson = doc.dump(2) + "\n";
                else if (!doc.is_null())
                    run.error("schedule", "not a schedule document (no \"strata_schedule\" "
                                          "version)");
            }
            run.warnUnknownKeys({"schedule", "traces"});
            const Json* traces = run.optionalArray("traces");
            if (!traces)
                continue;
            for (std::size_t k = 0; k < traces->size(); ++k) {
                json::FieldReader t = run.element(*traces, k, "traces");
                if (t.isObject())
                    readTrace(t, first + static_cast<int>(i), scheduleJson);
            }
        }
    }
    if (hasErrors(diags))
        return diags;
    return p;
}

// A schedule document's text as JSON, or null when there is none (or it is not JSON).
Json scheduleDocument(const std::string& text) {
    if (text.empty())
        return nullptr;
    Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    return doc.is_discarded() ? Json(nullptr) : doc;
}

} // namespace

std::string projectToJson(const Project& project, const std::string& projectDir) {
    // One entry per run, in run order; a run's schedule once, from its first trace.
    Json runs = Json::array();
    for (int run = 0; run < runCount(project.traces); ++run) {
        Json traces = Json::array();
        Json schedule = nullptr;
        for (const TraceRef& t : project.traces) {
            if (t.run != run)
                continue;
            if (traces.empty())
                schedule = scheduleDocument(t.scheduleJson);
            traces.push_back({{"path", relativeTo(t.path, projectDir)},
                              {"source", t.source},
                              {"label", t.label},
                              {"schedule_hash", t.scheduleHash}});
        }
        if (!traces.empty())
            runs.push_back({{"schedule", schedule}, {"traces", traces}});
    }
    const Json schedule = scheduleDocument(project.scheduleJson);
    const std::string target =
        isTargetFile(project.target) ? relativeTo(project.target, projectDir) : project.target;
    Json doc = {{"strata_project", kProjectSchemaVersion},
                {"model",
                 {{"path", relativeTo(project.modelPath, projectDir)},
                  {"content_hash", project.modelHash}}},
                {"target", target},
                {"strategy", project.strategy},
                {"schedule", schedule},
                {"view",
                 {{"tab", project.view.tab},
                  {"zoom", project.view.zoom},
                  {"selected_block", project.view.selectedBlock},
                  {"selected_op", project.view.selectedOp}}},
                {"runs", runs}};
    return doc.dump(2) + "\n";
}

Expected<Project> parseProject(std::string_view text, const std::string& file) {
    auto doc = json::parseDocument(text, file);
    if (!doc)
        return doc.takeDiagnostics();
    return projectFromDocument(*doc, file);
}

Expected<Project> loadProjectFile(const std::string& path) {
    auto doc = json::readDocument(path);
    if (!doc)
        return doc.takeDiagnostics();
    return projectFromDocument(*doc, path);
}

std::string savedTracesDir(const std::string& projectFile) {
    return projectFile + ".traces";
}

std::string savedTraceFile(const std::string& projectFile, int run, const std::string& source) {
    char number[16];
    std::snprintf(number, sizeof number, "%03d", run);
    return (fs::path(savedTracesDir(projectFile)) /
            ("run-" + std::string(number) + "-" + source + ".json"))
        .string();
}

int runCount(const std::vector<TraceRef>& traces) {
    int count = 0;
    for (const TraceRef& t : traces)
        count = std::max(count, t.run + 1);
    return count;
}

std::vector<std::vector<TraceRef>> tracesByRun(const std::vector<TraceRef>& traces) {
    std::vector<std::vector<TraceRef>> runs(static_cast<std::size_t>(runCount(traces)));
    for (const TraceRef& t : traces)
        if (t.run >= 0)
            runs[static_cast<std::size_t>(t.run)].push_back(t);
    return runs;
}

} // namespace strata::project
