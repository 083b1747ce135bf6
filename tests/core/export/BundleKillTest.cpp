// An export killed half-way (docs/EXPORT.md): a forked child writes a bundle over a previous one
// and is killed with SIGKILL after a few files (the test hook STRATA_TEST_EXPORT_KILL_AFTER in
// core/export/Bundle.cpp makes the moment deterministic). The previous bundle is still whole,
// byte for byte; the killed export's staging folder is left beside it, and the next export
// removes it and replaces the bundle.

#include "compiler/Pipeline.h"
#include "export/Bundle.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace strata::exporting {
namespace {

namespace fs = std::filesystem;

// Every file of `dir` with its bytes.
std::map<std::string, std::string> contentsOf(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file())
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        out[fs::relative(entry.path(), dir).string()] = bytes.str();
    }
    return out;
}

// The staging folders of exports to `dir` left beside it.
std::vector<fs::path> leftovers(const fs::path& dir) {
    std::vector<fs::path> out;
    const std::string prefix = "." + dir.filename().string() + ".partial-";
    for (const auto& entry : fs::directory_iterator(dir.parent_path()))
        if (entry.path().filename().string().starts_with(prefix))
            out.push_back(entry.path());
    return out;
}

class BundleKillTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_parent = fs::temp_directory_path() / ("strata-bundle-kill-" + std::to_string(::getpid()));
        fs::remove_all(m_parent);
        fs::create_directories(m_parent);
        m_dir = m_parent / "bundle";
    }
    void TearDown() override { fs::remove_all(m_parent); }

    fs::path m_parent;
    fs::path m_dir;
};

TEST_F(BundleKillTest, AKilledExportLeavesThePreviousBundleWhole) {
    auto imported = model::importOnnxFile(STRATA_SAMPLES_DIR "/resnet_tiny.onnx");
    ASSERT_TRUE(imported) << imported.diagnostics().front().toString();
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target);
    const auto schedule =
        schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::Rules);
    auto compiled = compiler::compile(*imported->graph, *target, schedule);
    ASSERT_TRUE(compiled);
    const BundleInput in{
        imported->graph.get(), &*target, &schedule, &compiled->program, nullptr, nullptr, {}};

    auto first = writeBundle(in, m_dir);
    ASSERT_TRUE(first) << first.diagnostics().front().toString();
    ASSERT_GT(first->files.size(), 3u);
    const auto before = contentsOf(m_dir);

    // Another model's export into the same folder (per-op: other files), killed after 2 files.
    const auto perOp = schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::PerOp);
    auto recompiled = compiler::compile(*imported->graph, *target, perOp);
    ASSERT_TRUE(recompiled);
    const BundleInput other{
        imported->graph.get(), &*target, &perOp, &recompiled->program, nullptr, nullptr, {}};
    const pid_t child = ::fork();
    ASSERT_NE(child, -1);
    if (child == 0) {
        ::alarm(120); // a child that hangs dies of SIGALRM, and the test says so
        ::setenv("STRATA_TEST_EXPORT_KILL_AFTER", "2", 1);
        (void)writeBundle(other, m_dir);
        std::_Exit(0); // not killed: the hook did not work, and the parent says so
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the export was not killed half-way";

    EXPECT_EQ(contentsOf(m_dir), before);
    const auto left = leftovers(m_dir);
    ASSERT_EQ(left.size(), 1u); // the killed export's staging folder, holding its 2 files
    EXPECT_EQ(contentsOf(left.front()).size(), 2u);

    auto next = writeBundle(other, m_dir);
    ASSERT_TRUE(next) << next.diagnostics().front().toString();
    EXPECT_TRUE(leftovers(m_dir).empty());
    EXPECT_NE(contentsOf(m_dir), before);
    EXPECT_TRUE(fs::exists(m_dir / "bundle.json"));
}

} // namespace
} // namespace strata::exporting
