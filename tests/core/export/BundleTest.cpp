// The export bundle of a real compile: every file is written, each parses as what it claims to
// be, the report carries the emulated and measured totals, and a folder that cannot be made is an
// error, not a crash.

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"
#include "export/Bundle.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "trace/TraceJson.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace strata::exporting {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Compiled {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    schedule::Schedule schedule;
    compiler::Program program;
    trace::Trace emulated;
};

Compiled compileSample(const std::string& targetName) {
    Compiled c;
    auto imported = model::importOnnxFile(STRATA_SAMPLES_DIR "/resnet_tiny.onnx");
    EXPECT_TRUE(imported) << imported.diagnostics().front().toString();
    c.graph = imported->graph;
    auto target = target::resolveTarget(targetName);
    EXPECT_TRUE(target);
    c.target = *target;
    c.schedule = schedule::makeSchedule(*c.graph, c.target, schedule::Strategy::Rules);
    auto compiled = compiler::compile(*c.graph, c.target, c.schedule);
    EXPECT_TRUE(compiled);
    c.program = compiled->program;
    auto emulated = emulator::emulate(c.program, c.target, *c.graph);
    EXPECT_TRUE(emulated);
    c.emulated = *emulated;
    return c;
}

class BundleTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("strata-bundle-" + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(BundleTest, WritesEveryArtefactAndEachParses) {
    Compiled c = compileSample("host");
    // A "measured" trace for the report: the emulated one relabelled, every event 10% longer.
    trace::Trace measured = c.emulated;
    measured.source = trace::Source::Measured;
    for (auto& e : measured.events) {
        e.startPs = e.startPs * 11 / 10;
        e.endPs = e.endPs * 11 / 10;
    }
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program, &c.emulated, &measured, {}};
    auto bundle = writeBundle(in, m_dir);
    ASSERT_TRUE(bundle) << bundle.diagnostics().front().toString();

    std::set<std::string> names;
    for (const auto& f : bundle->files) {
        names.insert(f.name);
        EXPECT_TRUE(fs::exists(m_dir / f.name)) << f.name;
        EXPECT_FALSE(f.what.empty()) << f.name;
    }
    for (const char* expected :
         {"resnet_tiny.s", "resnet_tiny.program.json", "resnet_tiny.cpp", "resnet_tiny.weights.bin", "schedule.json",
          "emulated.trace.json", "emulated.csv", "measured.trace.json", "measured.csv", "bundle.json", "report.md"})
        EXPECT_TRUE(names.count(expected)) << expected;
    for (const auto& entry : fs::directory_iterator(m_dir))
        EXPECT_FALSE(entry.path().string().ends_with(".partial")) << entry.path();

    // Each file is what it says.
    EXPECT_EQ(nlohmann::json::parse(readFile(m_dir / "resnet_tiny.program.json"))["strata_program"], 1);
    EXPECT_TRUE(nlohmann::json::parse(readFile(m_dir / "schedule.json")).is_object());
    auto reloaded = trace::loadTraceFile((m_dir / "measured.trace.json").string());
    ASSERT_TRUE(reloaded);
    EXPECT_EQ(reloaded->trace, measured);
    EXPECT_TRUE(readFile(m_dir / "emulated.csv").starts_with("id,core,kind,path"));
    EXPECT_NE(readFile(m_dir / "resnet_tiny.s").find("barrier"), std::string::npos);
    EXPECT_NE(readFile(m_dir / "resnet_tiny.cpp").find("int main"), std::string::npos);
    const auto manifest = nlohmann::json::parse(readFile(m_dir / "bundle.json"));
    EXPECT_EQ(manifest["strata_bundle"], kBundleSchemaVersion);
    EXPECT_EQ(manifest["target"], c.target.name);
    EXPECT_EQ(manifest["files"].size(), bundle->files.size());

    // The report: both totals and the error of a prediction that is 10% short of "measured".
    const std::string report = readFile(m_dir / "report.md");
    EXPECT_NE(report.find("emulated (predicted)"), std::string::npos);
    EXPECT_NE(report.find("measured on"), std::string::npos);
    EXPECT_NE(report.find("| prediction error | -9.1% |"), std::string::npos) << report;
    EXPECT_NE(report.find("## Slowest blocks"), std::string::npos);
}

TEST_F(BundleTest, WithoutTracesWritesTheProgramAndSaysSo) {
    Compiled c = compileSample("mncore2");
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program, nullptr, nullptr, {}};
    auto bundle = writeBundle(in, m_dir);
    ASSERT_TRUE(bundle);
    EXPECT_FALSE(fs::exists(m_dir / "emulated.trace.json"));
    EXPECT_TRUE(fs::exists(m_dir / "resnet_tiny.s"));
    EXPECT_NE(readFile(m_dir / "report.md").find("no timeline exported"), std::string::npos);
}

TEST_F(BundleTest, AFolderThatCannotBeMadeIsAnError) {
    Compiled c = compileSample("host");
    std::ofstream(m_dir.string()) << "a file where the folder should go";
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program, &c.emulated, nullptr, {}};
    auto bundle = writeBundle(in, m_dir / "bundle");
    ASSERT_FALSE(bundle);
    EXPECT_NE(bundle.diagnostics().front().message.find("cannot create the folder"), std::string::npos)
        << bundle.diagnostics().front().message;
    fs::remove(m_dir);
}

TEST_F(BundleTest, MissingInputsAreAnError) {
    auto bundle = writeBundle(BundleInput{}, m_dir);
    ASSERT_FALSE(bundle);
    EXPECT_NE(bundle.diagnostics().front().message.find("needs the graph"), std::string::npos);
}

TEST_F(BundleTest, PlotsDrawnIntoTheFolderMoveWithTheBundle) {
    Compiled c = compileSample("mncore2");
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "time.png") << "png";
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program,
                   nullptr,       nullptr,   {"time.png"}};
    auto bundle = writeBundle(in, m_dir);
    ASSERT_TRUE(bundle) << bundle.diagnostics().front().toString();
    EXPECT_EQ(readFile(m_dir / "time.png"), "png");
    EXPECT_TRUE(fs::exists(m_dir / "bundle.json"));
}

TEST_F(BundleTest, APreviousBundleIsReplacedAsAWhole) {
    Compiled c = compileSample("mncore2");
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program, &c.emulated, nullptr, {}};
    ASSERT_TRUE(writeBundle(in, m_dir));
    ASSERT_TRUE(fs::exists(m_dir / "emulated.csv"));
    in.emulated = nullptr;
    ASSERT_TRUE(writeBundle(in, m_dir));
    EXPECT_FALSE(fs::exists(m_dir / "emulated.csv")) << "a file of the previous bundle stayed";
    // No staging or previous folder is left beside it.
    for (const auto& entry : fs::directory_iterator(m_dir.parent_path()))
        EXPECT_EQ(
            entry.path().filename().string().find("." + m_dir.filename().string() + ".partial"),
            std::string::npos)
            << entry.path();
}

TEST_F(BundleTest, AFolderOfOtherFilesIsNotEmptied) {
    Compiled c = compileSample("mncore2");
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "thesis.tex") << "mine";
    BundleInput in{c.graph.get(), &c.target, &c.schedule, &c.program, nullptr, nullptr, {}};
    auto bundle = writeBundle(in, m_dir);
    ASSERT_FALSE(bundle);
    EXPECT_NE(bundle.diagnostics().front().message.find("thesis.tex"), std::string::npos);
    EXPECT_EQ(readFile(m_dir / "thesis.tex"), "mine");
    EXPECT_FALSE(fs::exists(m_dir / "bundle.json"));
}

} // namespace
} // namespace strata::exporting
