// Project containment (issue 24): a project names files inside its own folder only; a model or
// trace path that leaves it (by "..", by an absolute path, through a symlink) is refused with a
// diagnostic naming the field.

#include "project/Containment.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace strata::project {
namespace {

namespace fs = std::filesystem;

class Containment : public ::testing::Test {
  protected:
    void SetUp() override {
        m_root = fs::temp_directory_path() /
                 ("strata-contain-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_root);
        fs::create_directories(m_root / "project" / "models");
        std::ofstream(m_root / "project" / "models" / "m.onnx") << "x";
        std::ofstream(m_root / "outside.onnx") << "x";
    }
    void TearDown() override { fs::remove_all(m_root); }

    std::string projectFile() const { return (m_root / "project" / "session.strata").string(); }

    // Writes a project naming `model` and `trace` as given, and loads it contained.
    Expected<Project> load(const std::string& model, const std::string& trace = "") {
        nlohmann::json doc = {
            {"strata_project", 1}, {"model", {{"path", model}}}, {"target", "mncore2"}};
        if (!trace.empty())
            doc["traces"] = {{{"path", trace}, {"source", "measured"}}};
        std::ofstream(projectFile()) << doc.dump();
        return loadContainedProject(projectFile());
    }

    static std::string firstError(const Expected<Project>& p) {
        return p ? std::string("(loaded)") : p.diagnostics().front().toString();
    }

    fs::path m_root;
};

TEST_F(Containment, PathsInsideTheFolderLoad) {
    auto p = load("models/m.onnx", "runs/a.trace.json");
    ASSERT_TRUE(p.ok()) << firstError(p);
    EXPECT_EQ(p->modelPath, (m_root / "project" / "models" / "m.onnx").string());
}

TEST_F(Containment, DotDotOutOfTheFolderIsRefused) {
    auto p = load("../outside.onnx");
    ASSERT_FALSE(p.ok());
    EXPECT_NE(firstError(p).find("lies outside the project's folder"), std::string::npos)
        << firstError(p);
    EXPECT_EQ(p.diagnostics().front().where.field, "model.path");
    EXPECT_FALSE(load("models/../../../../../../etc/passwd").ok());
}

TEST_F(Containment, AbsolutePathsOutsideAreRefused) {
    EXPECT_FALSE(load("/etc/shadow").ok());
    EXPECT_TRUE(load((m_root / "project" / "models" / "m.onnx").string()).ok());
}

TEST_F(Containment, TracesOutsideAreRefused) {
    auto p = load("models/m.onnx", "/tmp/elsewhere.trace.json");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.diagnostics().front().where.field, "runs[0].traces[0].path");
}

TEST_F(Containment, ASymlinkPointingOutIsRefused) {
    fs::create_symlink(m_root / "outside.onnx", m_root / "project" / "models" / "link.onnx");
    EXPECT_FALSE(load("models/link.onnx").ok());
}

TEST_F(Containment, ThePlainLoaderStillReadsThePathsForTheAppToAsk) {
    load("../outside.onnx");
    auto p = loadProjectFile(projectFile());
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(checkContainment(*p, projectFile()).size(), 1u);
}

} // namespace
} // namespace strata::project
