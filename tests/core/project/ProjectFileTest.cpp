// Project files: a project written and read back is the same project (paths inside the
// project's folder written relative to it); malformed, truncated, zero-filled, empty,
// newer-version, foreign and ill-typed files are refused with a diagnostic naming the file and
// the field.

#include "project/Project.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace strata::project {
namespace {

namespace fs = std::filesystem;

Project sampleProject(const std::string& dir) {
    Project p;
    p.modelPath = dir + "/models/resnet.onnx";
    p.modelHash = "sha256:0123abcd";
    p.target = "mncore2";
    p.strategy = "fuse-max";
    // As the writer formats it: the schedule document is stored re-serialised.
    p.scheduleJson =
        nlohmann::json{{"strata_schedule", 1}, {"blocks", nlohmann::json::array()}}.dump(2) + "\n";
    p.view.tab = "program";
    p.view.zoom = 0.75;
    p.view.selectedBlock = 3;
    p.view.selectedOp = "conv1";
    p.traces = {{dir + "/traces/run1.json", "measured", "first run", "3f9a"},
                {"/elsewhere/emulated.json", "emulated", "", ""}};
    return p;
}

// A schedule document with `blocks` empty blocks, as the writer formats it.
std::string scheduleDocument(int blocks) {
    nlohmann::json list = nlohmann::json::array();
    for (int b = 0; b < blocks; ++b)
        list.push_back({{"id", b}});
    return nlohmann::json{{"strata_schedule", 1}, {"blocks", list}}.dump(2) + "\n";
}

// Three runs of two schedules: each a prediction and a measurement, the last one only a
// prediction (a pinned emulation).
std::vector<TraceRef> threeRuns(const std::string& dir) {
    std::vector<TraceRef> traces;
    const std::string schedules[] = {scheduleDocument(2), scheduleDocument(3), scheduleDocument(3)};
    for (int run = 0; run < 3; ++run) {
        const std::string hash = "h" + std::to_string(run == 0 ? 0 : 1);
        traces.push_back({savedTraceFile(dir + "/s.strata", run, "emulated"), "emulated",
                          "prediction #" + std::to_string(run + 1), hash, run, schedules[run]});
        if (run < 2)
            traces.push_back({savedTraceFile(dir + "/s.strata", run, "measured"), "measured",
                              "run #" + std::to_string(run + 1), hash, run, schedules[run]});
    }
    return traces;
}

// The only error of `result`, which must have failed.
std::string theError(const Expected<Project>& result) {
    EXPECT_FALSE(result.ok());
    if (result.ok())
        return {};
    std::string messages;
    for (const Diagnostic& d : result.diagnostics())
        if (d.severity == Severity::Error)
            messages += d.where.field + ": " + d.message + "\n";
    return messages;
}

TEST(ProjectFile, RoundTripKeepsEverythingAndWritesInsidePathsRelative) {
    const std::string dir = "/projects/p";
    const Project p = sampleProject(dir);
    const std::string text = projectToJson(p, dir);
    const nlohmann::json doc = nlohmann::json::parse(text);
    EXPECT_EQ(doc["strata_project"], kProjectSchemaVersion);
    EXPECT_EQ(doc["model"]["path"], "models/resnet.onnx");
    EXPECT_EQ(doc["runs"][0]["traces"][0]["path"], "traces/run1.json");
    EXPECT_EQ(doc["runs"][0]["traces"][1]["path"], "/elsewhere/emulated.json");
    EXPECT_EQ(doc["runs"][0]["traces"][0]["schedule_hash"], "3f9a");
    EXPECT_EQ(doc["schedule"]["strata_schedule"], 1);

    auto back = parseProject(text, dir + "/session.strata");
    ASSERT_TRUE(back.ok()) << back.diagnostics().front().toString();
    EXPECT_EQ(back->modelPath, p.modelPath);
    EXPECT_EQ(back->scheduleJson, p.scheduleJson);
    EXPECT_EQ(back->view, p.view);
    EXPECT_EQ(back->traces, p.traces);
    EXPECT_EQ(*back, p);
}

TEST(ProjectFile, ATargetFileIsAPathAndAPresetIsAName) {
    Project p = sampleProject("/p");
    p.target = "/p/targets/board.json";
    const nlohmann::json doc = nlohmann::json::parse(projectToJson(p, "/p"));
    EXPECT_EQ(doc["target"], "targets/board.json");
    auto back = parseProject(doc.dump(), "/p/x.strata");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->target, "/p/targets/board.json");
}

TEST(ProjectFile, NoScheduleIsWrittenAsNull) {
    Project p = sampleProject("/p");
    p.scheduleJson.clear();
    const std::string text = projectToJson(p, "/p");
    EXPECT_TRUE(nlohmann::json::parse(text)["schedule"].is_null());
    auto back = parseProject(text, "/p/x.strata");
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(back->scheduleJson.empty());
}

TEST(ProjectFile, MalformedTextSaysWhere) {
    auto result = parseProject("{\"strata_project\": 1, \"model\": {", "bad.strata");
    ASSERT_FALSE(result.ok());
    const Diagnostic& d = result.diagnostics().front();
    EXPECT_EQ(d.where.file, "bad.strata");
    EXPECT_TRUE(d.where.offset.has_value());
}

TEST(ProjectFile, TruncatedFileIsRefused) {
    const std::string text = projectToJson(sampleProject("/p"), "/p");
    for (std::size_t cut : {std::size_t{1}, text.size() / 3, text.size() / 2, text.size() - 3}) {
        auto result = parseProject(std::string_view(text).substr(0, cut), "cut.strata");
        ASSERT_FALSE(result.ok()) << "cut at " << cut;
        EXPECT_EQ(result.diagnostics().front().where.file, "cut.strata");
    }
}

TEST(ProjectFile, ZeroFilledAndEmptyFilesAreRefused) {
    const fs::path dir =
        fs::temp_directory_path() / ("strata-project-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path zeros = dir / "zeros.strata";
    {
        std::ofstream out(zeros, std::ios::binary);
        out << std::string(4096, '\0');
    }
    auto result = loadProjectFile(zeros.string());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.diagnostics().front().where.file, zeros.string());
    EXPECT_NE(result.diagnostics().front().message.find("NUL"), std::string::npos)
        << result.diagnostics().front().message;

    const fs::path empty = dir / "empty.strata";
    std::ofstream(empty).close();
    EXPECT_FALSE(loadProjectFile(empty.string()).ok());
    EXPECT_FALSE(loadProjectFile((dir / "missing.strata").string()).ok());
    fs::remove_all(dir);
}

TEST(ProjectFile, ANewerSchemaIsRefusedWithBothVersions) {
    nlohmann::json doc = nlohmann::json::parse(projectToJson(sampleProject("/p"), "/p"));
    doc["strata_project"] = kProjectSchemaVersion + 1;
    const std::string error = theError(parseProject(doc.dump(), "new.strata"));
    EXPECT_NE(error.find("strata_project"), std::string::npos) << error;
    EXPECT_NE(error.find("newer Strata"), std::string::npos) << error;
    EXPECT_NE(error.find(std::to_string(kProjectSchemaVersion + 1)), std::string::npos) << error;
}

TEST(ProjectFile, OtherDocumentsAreNotProjects) {
    // A schedule file, a JSON array, a bare number.
    EXPECT_NE(theError(parseProject(R"({"strata_schedule": 1, "blocks": []})", "s.json"))
                  .find("not a Strata project"),
              std::string::npos);
    EXPECT_NE(theError(parseProject("[1, 2]", "a.strata")).find("object"), std::string::npos);
    EXPECT_FALSE(parseProject("42", "n.strata").ok());
}

TEST(ProjectFile, IllTypedFieldsNameTheirPath) {
    const nlohmann::json good = nlohmann::json::parse(projectToJson(sampleProject("/p"), "/p"));
    struct Case {
        const char* field;
        nlohmann::json value;
        const char* path; // expected field path in the diagnostic
    };
    const Case cases[] = {
        {"strata_project", "one", "strata_project"},
        {"model", "resnet.onnx", "model"},
        {"target", 7, "target"},
        {"schedule", "blocks", "schedule"},
        {"schedule", nlohmann::json::object({{"blocks", 1}}), "schedule"},
        {"traces", nlohmann::json::array({"run.json"}), "traces[0]"},
        {"runs", nlohmann::json::array({"run.json"}), "runs[0]"},
        {"runs", nlohmann::json::array({{{"schedule", 3}}}), "runs[0].schedule"},
        {"runs", nlohmann::json::array({{{"traces", "t.json"}}}), "runs[0].traces"},
    };
    for (const Case& c : cases) {
        nlohmann::json doc = good;
        doc[c.field] = c.value;
        const std::string error = theError(parseProject(doc.dump(), "typed.strata"));
        EXPECT_NE(error.find(c.path), std::string::npos) << c.field << ": " << error;
    }
    nlohmann::json doc = good;
    doc["view"]["zoom"] = "big";
    EXPECT_NE(theError(parseProject(doc.dump(), "v.strata")).find("view.zoom"), std::string::npos);
    doc = good;
    doc["view"]["selected_block"] = -5;
    EXPECT_NE(theError(parseProject(doc.dump(), "v.strata")).find("view.selected_block"),
              std::string::npos);
    doc = good;
    doc["model"]["path"] = "";
    EXPECT_NE(theError(parseProject(doc.dump(), "v.strata")).find("model.path"), std::string::npos);
    doc = good;
    doc["runs"][0]["traces"][0]["source"] = "guessed";
    EXPECT_NE(theError(parseProject(doc.dump(), "v.strata")).find("runs[0].traces[0].source"),
              std::string::npos);
    doc = good;
    doc["runs"][0]["traces"][1]["schedule_hash"] = 12;
    EXPECT_NE(
        theError(parseProject(doc.dump(), "v.strata")).find("runs[0].traces[1].schedule_hash"),
        std::string::npos);
}

TEST(ProjectFile, ATraceWithoutAScheduleHashReadsAsUnknown) {
    nlohmann::json doc = nlohmann::json::parse(projectToJson(sampleProject("/p"), "/p"));
    doc["runs"][0]["traces"][0].erase("schedule_hash");
    auto result = parseProject(doc.dump(), "/p/w.strata");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->traces[0].scheduleHash, "");
    EXPECT_EQ(result->traces[0].source, "measured");
}

TEST(ProjectFile, SavedTracesGoBesideTheProject) {
    EXPECT_EQ(savedTracesDir("/p/session.strata"), "/p/session.strata.traces");
    EXPECT_EQ(savedTraceFile("/p/session.strata", 7, "measured"),
              "/p/session.strata.traces/run-007-measured.json");
}

TEST(ProjectFile, EveryRunIsKeptWithItsSchedule) {
    const std::string dir = "/projects/p";
    Project p = sampleProject(dir);
    p.traces = threeRuns(dir);
    EXPECT_EQ(runCount(p.traces), 3);
    const std::string text = projectToJson(p, dir);
    const nlohmann::json doc = nlohmann::json::parse(text);
    ASSERT_EQ(doc["runs"].size(), 3u);
    for (std::size_t run = 0; run < 3; ++run) {
        // The schedule once per run, not per trace.
        EXPECT_EQ(doc["runs"][run]["schedule"]["blocks"].size(), run == 0 ? 2u : 3u);
        EXPECT_FALSE(doc["runs"][run]["traces"][0].contains("schedule"));
    }
    EXPECT_EQ(doc["runs"][2]["traces"].size(), 1u);
    EXPECT_EQ(doc["runs"][1]["traces"][1]["path"], "s.strata.traces/run-001-measured.json");

    auto back = parseProject(text, dir + "/s.strata");
    ASSERT_TRUE(back.ok()) << back.diagnostics().front().toString();
    EXPECT_EQ(back->traces, p.traces);
    EXPECT_EQ(runCount(back->traces), 3);

    const auto byRun = tracesByRun(back->traces);
    ASSERT_EQ(byRun.size(), 3u);
    for (std::size_t run = 0; run < byRun.size(); ++run) {
        ASSERT_EQ(byRun[run].size(), run < 2 ? 2u : 1u);
        for (const TraceRef& t : byRun[run])
            EXPECT_EQ(t.run, static_cast<int>(run));
    }
    EXPECT_EQ(byRun[1][1].source, "measured");
}

TEST(ProjectFile, AFileFromBeforeRunsLoadsItsTracesAsOneRun) {
    // What Strata wrote before it kept every run: a flat "traces" list of the latest run.
    const nlohmann::json old = {
        {"strata_project", 1},
        {"model", {{"path", "m.onnx"}, {"content_hash", "abc"}}},
        {"target", "host"},
        {"strategy", "fuse-max"},
        {"schedule", nullptr},
        {"traces", nlohmann::json::array({{{"path", "old.strata.traces/emulated.json"},
                                           {"source", "emulated"},
                                           {"label", "prediction"},
                                           {"schedule_hash", "5c1e"}},
                                          {{"path", "old.strata.traces/measured.json"},
                                           {"source", "measured"},
                                           {"label", "run on host"},
                                           {"schedule_hash", "5c1e"}}})}};
    auto loaded = parseProject(old.dump(), "/q/old.strata");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    ASSERT_EQ(loaded->traces.size(), 2u);
    EXPECT_EQ(runCount(loaded->traces), 1);
    EXPECT_EQ(loaded->traces[1].path, "/q/old.strata.traces/measured.json");
    EXPECT_EQ(loaded->traces[1].run, 0);
    EXPECT_TRUE(loaded->traces[1].scheduleJson.empty());
    // Saved again, it is written in the new form and reads back the same.
    auto again = parseProject(projectToJson(*loaded, "/q"), "/q/old.strata");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->traces, loaded->traces);
}

TEST(ProjectFile, UnknownKeysAreWarningsNotErrors) {
    nlohmann::json doc = nlohmann::json::parse(projectToJson(sampleProject("/p"), "/p"));
    doc["colour_theme"] = "dark";
    auto result = parseProject(doc.dump(), "/p/w.strata");
    ASSERT_TRUE(result.ok());
}

} // namespace
} // namespace strata::project
