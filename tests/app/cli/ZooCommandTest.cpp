// `strata-cli zoo` on the bundled samples: one row per model with every stage timed, a model that
// cannot be imported reported at its first stage without stopping the others, and bad paths.

#include "CliRunner.h"
#include "TempDir.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace strata::cli::test {
namespace {

constexpr int kFailed = 1;
constexpr int kBadInput = 2;

const std::vector<std::string> kStages{"import", "schedule", "compile", "emulate", "run"};

TEST(ZooCommand, SamplesFolderGivesOneRowPerModel) {
    const CliResult r = runCli({"zoo", STRATA_SAMPLES_DIR, "--json"});
    const auto j = nlohmann::ordered_json::parse(r.out);
    EXPECT_EQ(j["targets"], (nlohmann::ordered_json{"mncore2", "mlu100", "host"}));
    EXPECT_EQ(j["strategies"], (nlohmann::ordered_json{"per-op", "rules", "fuse-max"}));
    EXPECT_EQ(j["stages"], nlohmann::ordered_json(kStages));

    std::set<std::string> expected;
    for (const auto& entry : std::filesystem::directory_iterator(STRATA_SAMPLES_DIR))
        if (entry.path().extension() == ".onnx")
            expected.insert(entry.path().stem().string());
    std::set<std::string> names;
    int passed = 0;
    for (const auto& row : j["models"]) {
        names.insert(row["model"].get<std::string>());
        EXPECT_GT(row["ops"].get<int>(), 0) << row.dump();
        int typed = 0;
        for (const auto& [type, count] : row["op_types"].items())
            typed += count.get<int>();
        EXPECT_EQ(typed, row["ops"].get<int>()) << row.dump();
        // Stages run in order (all of them once the model imports), each timed.
        const auto& stages = row["stage_ms"];
        ASSERT_FALSE(stages.empty());
        std::size_t i = 0;
        for (const auto& [stage, ms] : stages.items()) {
            ASSERT_LT(i, kStages.size());
            EXPECT_EQ(stage, kStages[i++]);
            EXPECT_GE(ms.get<double>(), 0.0);
        }
        if (row["ok"].get<bool>()) {
            ++passed;
            EXPECT_EQ(stages.size(), kStages.size()) << row.dump();
            EXPECT_GT(row["host_rules_emulated_ns"].get<double>(), 0.0);
            EXPECT_GT(row["host_rules_measured_ns"].get<double>(), 0.0);
        } else {
            // Cases that pass go on through the stages; the first failure is the row's.
            const auto stage = row["failure"]["stage"].get<std::string>();
            EXPECT_TRUE(stages.contains(stage)) << row.dump();
            EXPECT_GE(row["failed_cases"][stage].get<int>(), 1) << row.dump();
            EXPECT_FALSE(row["failure"]["diagnostic"].get<std::string>().empty());
        }
    }
    EXPECT_EQ(names, expected);
    EXPECT_EQ(j["passed"].get<int>(), passed);
    EXPECT_EQ(r.exitCode, passed == int(expected.size()) ? 0 : kFailed) << r.err;
}

TEST(ZooCommand, ResnetSamplePassesEveryStage) {
    // resnet_tiny runs through `run --check` with both strategies in RunCommandTest: the zoo
    // must agree.
    const CliResult r = runCli({"zoo", samplePath("resnet_tiny.onnx")});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(containsText(r.out, "first failing stage"));
    EXPECT_TRUE(containsText(r.out, "resnet_tiny"));
    EXPECT_TRUE(containsText(r.out, "1 of 1 models pass every stage"));
}

TEST(ZooCommand, AnUnreadableModelFailsAtImportAndTheOthersStillRun) {
    TempDir dir;
    const auto broken = dir.writeFile("broken.onnx", "this is not a protobuf");
    const CliResult r = runCli({"zoo", broken.string(), samplePath("resnet_tiny.onnx"), "--json"});
    EXPECT_EQ(r.exitCode, kFailed) << r.err;
    const auto j = nlohmann::ordered_json::parse(r.out);
    ASSERT_EQ(j["models"].size(), 2u);
    const auto& bad = j["models"][0];
    EXPECT_EQ(bad["model"], "broken");
    EXPECT_FALSE(bad["ok"].get<bool>());
    EXPECT_EQ(bad["failure"]["stage"], "import");
    EXPECT_EQ(bad["stage_ms"].size(), 1u);
    EXPECT_TRUE(containsText(bad["failure"]["diagnostic"].get<std::string>(), "broken.onnx"));
    EXPECT_TRUE(j["models"][1]["ok"].get<bool>()) << j["models"][1].dump();
    EXPECT_EQ(j["passed"].get<int>(), 1);
}

TEST(ZooCommand, MissingPathAndEmptyFolderAreBadInput) {
    const CliResult missing = runCli({"zoo", "/nonexistent/zoo"});
    EXPECT_EQ(missing.exitCode, kBadInput);
    EXPECT_TRUE(
        containsText(missing.err, "'/nonexistent/zoo' is neither a model file nor a folder"));
    TempDir empty;
    const CliResult none = runCli({"zoo", empty.path().string()});
    EXPECT_EQ(none.exitCode, kBadInput);
    EXPECT_TRUE(containsText(none.err, "no model to run"));
}

} // namespace
} // namespace strata::cli::test
