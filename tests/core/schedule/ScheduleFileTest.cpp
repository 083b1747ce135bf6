// The schedule file format: round trips, and each kind of bad file with its diagnostic.

#include "ScheduleFixtures.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace strata::schedule {
namespace {

using test::mentions;

struct ScheduleFileTest : ::testing::Test {
    std::shared_ptr<const ir::Graph> g = test::convChain();
    target::Target t = test::preset("mncore2");
    Schedule s = makeSchedule(*g, t, Strategy::Rules);
    nlohmann::json doc = nlohmann::json::parse(scheduleToJson(s, *g));

    std::vector<Diagnostic> errorsOf(const std::string& text) {
        auto r = parseSchedule(text, "s.json", *g);
        EXPECT_FALSE(r.ok());
        return r.ok() ? std::vector<Diagnostic>{} : r.diagnostics();
    }
    std::vector<Diagnostic> errorsOfDoc(const nlohmann::json& edited) { return errorsOf(edited.dump()); }
};

TEST_F(ScheduleFileTest, RoundTrip) {
    auto back = parseSchedule(scheduleToJson(s, *g), "s.json", *g);
    ASSERT_TRUE(back.ok()) << test::joined(back.diagnostics());
    EXPECT_EQ(*back, s);
    EXPECT_EQ(doc["strata_schedule"], 1);
    EXPECT_EQ(doc["model"]["content_hash"], g->contentHash);
    EXPECT_EQ(doc["blocks"][0]["ops"], nlohmann::json({"Conv_0", "Relu_1"}));
    EXPECT_EQ(doc["blocks"][0]["tile"], "auto");
}

TEST_F(ScheduleFileTest, SaveIsAtomicAndLoads) {
    test::TempDir dir;
    std::string path = (dir.path() / "s.json").string();
    EXPECT_TRUE(saveScheduleFile(path, s, *g).empty());
    auto back = loadScheduleFile(path, *g);
    ASSERT_TRUE(back.ok()) << test::joined(back.diagnostics());
    EXPECT_EQ(*back, s);
    EXPECT_FALSE(saveScheduleFile((dir.path() / "missing-dir" / "s.json").string(), s, *g).empty());
}

TEST_F(ScheduleFileTest, ScheduleForAnotherModel) {
    auto diags = errorsOf(scheduleToJson(makeSchedule(*test::diamond(), t, Strategy::PerOp), *test::diamond()));
    EXPECT_TRUE(mentions(diags, "field 'model.content_hash': schedule was made for another model"))
        << test::joined(diags);
}

TEST_F(ScheduleFileTest, UnknownOpName) {
    doc["blocks"][1]["ops"][0] = "conv99";
    auto diags = errorsOfDoc(doc);
    EXPECT_TRUE(mentions(diags, "field 'blocks[1].ops[0]': node 'conv99': model 'chain' has no op named 'conv99'"))
        << test::joined(diags);
}

TEST_F(ScheduleFileTest, TruncatedFile) {
    std::string text = scheduleToJson(s, *g);
    auto diags = errorsOf(text.substr(0, text.size() / 2));
    ASSERT_FALSE(diags.empty());
    EXPECT_TRUE(diags[0].where.offset.has_value()) << test::joined(diags);
}

TEST_F(ScheduleFileTest, ZeroFilledAndEmptyFiles) {
    EXPECT_TRUE(mentions(errorsOf(std::string(4096, '\0')), "NUL")) << test::joined(errorsOf(std::string(4096, '\0')));
    EXPECT_FALSE(errorsOf(std::string()).empty());
    test::TempDir dir;
    auto path = dir.write("zeros.json", std::string(100, '\0'));
    EXPECT_FALSE(loadScheduleFile(path.string(), *g).ok());
    EXPECT_FALSE(loadScheduleFile((dir.path() / "nope.json").string(), *g).ok());
}

TEST_F(ScheduleFileTest, NewerSchemaVersion) {
    doc["strata_schedule"] = 2;
    EXPECT_TRUE(mentions(errorsOfDoc(doc), "written by a newer Strata (schedule schema 2, this build reads 1)"));
}

TEST_F(ScheduleFileTest, NotASchedule) {
    EXPECT_TRUE(mentions(errorsOf(std::string(R"({"strata_target": 1})")), "field 'strata_schedule': missing"));
    EXPECT_TRUE(mentions(errorsOf(std::string("[1, 2]")), "object"));
}

TEST_F(ScheduleFileTest, NonFiniteAndIllTypedKnobs) {
    auto text = doc.dump();
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string edited = text;
        edited.replace(edited.find(from), from.size(), to);
        return edited;
    };
    EXPECT_FALSE(errorsOf(replaced("\"mp\":8", "\"mp\":1e999")).empty());
    EXPECT_FALSE(errorsOf(replaced("\"mp\":8", "\"mp\":NaN")).empty());
    EXPECT_TRUE(mentions(errorsOf(replaced("\"mp\":8", "\"mp\":2.5")), "field 'blocks[0].mp'"));
    EXPECT_TRUE(mentions(errorsOf(replaced("\"mp\":8", "\"mp\":\"eight\"")), "field 'blocks[0].mp'"));

    nlohmann::json edited = doc;
    edited["blocks"][0]["tile"] = {1, 0, 4, 4};
    EXPECT_TRUE(mentions(errorsOfDoc(edited), "extent 1 must be a positive integer, got 0"));
    edited["blocks"][0]["tile"] = "big";
    EXPECT_TRUE(mentions(errorsOfDoc(edited), "field 'blocks[0].tile': expected \"auto\" or an array of extents"));
    edited["blocks"][0]["tile"] = {1, 4.5, 4, 4};
    EXPECT_TRUE(mentions(errorsOfDoc(edited), "must be a positive integer, got 4.5"));
}

TEST_F(ScheduleFileTest, MissingBlocks) {
    doc.erase("blocks");
    EXPECT_TRUE(mentions(errorsOfDoc(doc), "field 'blocks': missing"));
}

} // namespace
} // namespace strata::schedule
