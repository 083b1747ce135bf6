// `strata-cli accuracy` as a user runs it on a bundled model: the documented JSON (per schedule
// totals, spread, per-transfer errors, splits by class and kind, per-block split; per model the
// rank correlation), the text report, and bad arguments. Uses the uncalibrated preset so no test
// depends on this machine's calibration; no timing is asserted.

#include "CliRunner.h"
#include "TempDir.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace strata::cli::test {
namespace {

constexpr int kBadInput = 2;

std::set<std::string> keysOf(const nlohmann::json& object) {
    std::set<std::string> keys;
    for (auto it = object.begin(); it != object.end(); ++it)
        keys.insert(it.key());
    return keys;
}

TEST(AccuracyCommand, JsonCarriesEverySchedulesReport) {
    const CliResult r =
        runCli({"accuracy", samplePath("resnet_tiny.onnx"), "--target", "host-uncalibrated",
                "--strategies", "per-op,fuse-max", "--mp", "1,2", "--repeat", "2", "--json", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["repeat"], 2);
    EXPECT_FALSE(j["calibrated"].get<bool>());
    ASSERT_EQ(j["models"].size(), 1u);
    const auto& model = j["models"][0];
    EXPECT_TRUE(model.contains("spearman"));
    EXPECT_TRUE(model["spearman"].is_null() ||
                (model["spearman"] >= -1.0 && model["spearman"] <= 1.0));
    EXPECT_TRUE(model["fallback_ops"].is_array());
    ASSERT_EQ(model["schedules"].size(), 4u);
    std::set<std::string> schedules;
    for (const auto& s : model["schedules"]) {
        schedules.insert(s["strategy"].get<std::string>() + std::to_string(s["mp"].get<int>()));
        EXPECT_EQ(keysOf(s), (std::set<std::string>{"strategy",
                                                    "mp",
                                                    "emulated_ns",
                                                    "measured_ns",
                                                    "error",
                                                    "speed",
                                                    "emulated_at_speed_ns",
                                                    "error_at_speed",
                                                    "spread",
                                                    "measured_totals_ns",
                                                    "emulated_idle_share",
                                                    "measured_idle_share",
                                                    "core_pace",
                                                    "transfers",
                                                    "transfer_median_abs_error",
                                                    "transfer_p90_abs_error",
                                                    "computes",
                                                    "compute_median_abs_error",
                                                    "compute_classes",
                                                    "transfer_kinds",
                                                    "blocks"}));
        EXPECT_GT(s["emulated_ns"].get<double>(), 0);
        EXPECT_GT(s["measured_ns"].get<double>(), 0);
        EXPECT_EQ(s["measured_totals_ns"].size(), 2u);
        EXPECT_GE(s["spread"].get<double>(), 0);
        EXPECT_LE(s["transfer_median_abs_error"].get<double>(),
                  s["transfer_p90_abs_error"].get<double>());
        ASSERT_FALSE(s["blocks"].empty());
        for (const auto& b : s["blocks"]) {
            EXPECT_EQ(keysOf(b), (std::set<std::string>{"id", "emulated_ns", "measured_ns", "error",
                                                        "emulated", "measured"}));
            EXPECT_EQ(keysOf(b["measured"]), (std::set<std::string>{"compute_ns", "transfer_ns",
                                                                    "wait_ns", "barrier_ns"}));
        }
        std::set<std::string> classes;
        for (const auto& g : s["compute_classes"])
            classes.insert(g["label"].get<std::string>());
        EXPECT_TRUE(classes.count("conv") || classes.count("pointwise_conv"))
            << s["compute_classes"].dump();
        for (const auto& g : s["transfer_kinds"])
            EXPECT_NE(g["label"].get<std::string>().find('/'), std::string::npos)
                << g.dump(); // path/kind of read
    }
    EXPECT_EQ(schedules, (std::set<std::string>{"per-op1", "per-op2", "fuse-max1", "fuse-max2"}));
    // The cores' pace against the prediction: per schedule one figure per core, per model the
    // median spread over the two-core schedules.
    for (const auto& s : model["schedules"]) {
        EXPECT_EQ(s["core_pace"].size(), std::size_t(s["mp"].get<int>())) << s["core_pace"].dump();
        for (const auto& pace : s["core_pace"])
            EXPECT_GT(pace.get<double>(), 0);
    }
    ASSERT_TRUE(model["core_pace_spread"].is_number()) << model.dump().substr(0, 300);
    EXPECT_GE(model["core_pace_spread"].get<double>(), 0);
    EXPECT_EQ(model["uneven_cores"].get<bool>(), model["core_pace_spread"].get<double>() > 0.07);
    // Other work's share of the CPUs while the model's runs were measured (Linux: known).
#ifdef __linux__
    ASSERT_TRUE(model["other_load"].is_number()) << model["other_load"].dump();
    EXPECT_GE(model["other_load"].get<double>(), 0);
    EXPECT_LE(model["other_load"].get<double>(), 1);
#endif
}

// With a calibration that timed the speed check, each model's report has the machine's speed on
// one core and on every core, and each schedule its error with the prediction scaled by the
// speed on its cores. The calibrated file's checks are then made four times as long (as if
// calibrated on a machine 4x slower): the text warns and says what the speed was; then taken out,
// as in calibrations made before them.
TEST(AccuracyCommand, SpeedAgainstCalibrationScalesEachSchedulesPrediction) {
    TempDir dir;
    const auto calibrated = dir.path() / "host.json";
    const CliResult made = runCli({"calibrate", "--quick", "-q", "-o", calibrated.string()});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const std::vector<std::string> accuracy{"accuracy",
                                            samplePath("mobilenet_tiny.onnx"),
                                            "--target",
                                            calibrated.string(),
                                            "--strategies",
                                            "rules",
                                            "--mp",
                                            "1,2",
                                            "--repeat",
                                            "2",
                                            "-q"};
    std::vector<std::string> json = accuracy;
    json.push_back("--json");
    const CliResult r = runCli(json);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto model = nlohmann::json::parse(r.out)["models"][0];
    std::map<int, double> speedOn;
    for (const auto& s : model["speed"]) {
        EXPECT_GT(s["check_ns"].get<double>(), 0) << s.dump();
        EXPECT_DOUBLE_EQ(s["ratio"].get<double>(),
                         s["calibrated_check_ns"].get<double>() / s["check_ns"].get<double>());
        speedOn[s["cores"].get<int>()] = s["ratio"].get<double>();
    }
    ASSERT_TRUE(speedOn.count(1)) << model["speed"].dump();
    for (const auto& s : model["schedules"]) {
        const int mp = s["mp"].get<int>();
        const double speed = speedOn.count(mp) ? speedOn[mp] : speedOn[1];
        EXPECT_DOUBLE_EQ(s["speed"].get<double>(), speed) << s.dump().substr(0, 300);
        // Computes at that speed, transfers as calibrated: between the prediction and the
        // prediction all over the speed.
        const double emulated = s["emulated_ns"].get<double>();
        const double atSpeed = s["emulated_at_speed_ns"].get<double>();
        EXPECT_GE(atSpeed, std::min(emulated, emulated / speed) * (1 - 1e-9));
        EXPECT_LE(atSpeed, std::max(emulated, emulated / speed) * (1 + 1e-9));
        EXPECT_NEAR(s["error_at_speed"].get<double>(), atSpeed / s["measured_ns"].get<double>() - 1,
                    1e-9);
    }

    nlohmann::json file = nlohmann::json::parse(std::ifstream(calibrated));
    for (auto& check : file["calibration"]["speed_checks"])
        check["ns"] = check["ns"].get<double>() * 4;
    std::ofstream(calibrated) << file.dump();
    const CliResult text = runCli(accuracy);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_TRUE(containsText(text.out, "warning: this machine ran computes at another speed than "
                                       "when it was calibrated"));
    EXPECT_TRUE(containsText(text.out, "x on one core"));
    EXPECT_TRUE(containsText(text.out, "at speed"));

    // A calibration made before the speed check: no speed, and the report says why.
    file["calibration"].erase("speed_checks");
    std::ofstream(calibrated) << file.dump();
    const CliResult none = runCli(accuracy);
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(containsText(none.out, "the calibration has no speed check"));
    EXPECT_EQ(none.out.find("machine speed"), std::string::npos) << none.out;
}

TEST(AccuracyCommand, TextNamesTheTargetAndTheRankCorrelation) {
    const CliResult r =
        runCli({"accuracy", samplePath("mobilenet_tiny.onnx"), "--target", "host-uncalibrated",
                "--strategies", "rules", "--mp", "1", "--repeat", "2", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "NOT calibrated"));
    EXPECT_TRUE(containsText(r.out, "rules mp1"));
    EXPECT_TRUE(containsText(r.out, "Spearman rank correlation: undefined")); // one schedule
    EXPECT_TRUE(containsText(r.out, "compute by class:"));
}

TEST(AccuracyCommand, EventsFileHasEveryMatchedEventWithItsTransferShape) {
    TempDir dir;
    const auto events = dir.path() / "events.csv";
    const CliResult r = runCli({"accuracy", samplePath("mobilenet_tiny.onnx"), "--target",
                                "host-uncalibrated", "--strategies", "rules", "--mp", "1,2",
                                "--repeat", "2", "--json", "-q", "--events", events.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::ifstream in(events);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, "model,strategy,mp,id,core,block,kind,label,bytes,rows,run_bytes,lines,writer,"
                    "concurrent,resident_own,resident_other,emulated_ns,measured_ns,op_type,macs,"
                    "activation_bytes,weight_bytes,output_bytes,output_tile,layout,epilogue,"
                    "window,accumulate,private_own,private_other,reuse_bytes");
    std::map<std::string, std::size_t> transfers; // per mp, as the report counts them
    std::size_t convs = 0;
    std::set<std::string> kinds;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string field; std::getline(fields, field, ',');)
            f.push_back(field);
        ASSERT_EQ(std::count(line.begin(), line.end(), ','), 30) << line;
        EXPECT_EQ(f[0], "mobilenet_tiny");
        kinds.insert(f[6]);
        if (f[6] == "compute") {
            ASSERT_GE(f.size(), 19u) << line; // its op at least
            if (f[18] == "Conv") {            // MACs, weights and a window
                ++convs;
                EXPECT_GT(std::stod(f[19]), 0) << line;
                EXPECT_GT(std::stoull(f[21]), 0u) << line;
                EXPECT_NE(f[26].find("/s"), std::string::npos) << line; // "3x3/s1x1/d1x1/g1"
            }
            continue;
        }
        EXPECT_GE(std::stoull(f[11]), 1u) << line; // a transfer touches a cache line at least
        ASSERT_EQ(f.size(), 31u) << line;
        for (std::size_t share : {14u, 15u, 28u, 29u}) { // resident and private shares
            EXPECT_GE(std::stod(f[share]), 0) << line;
            EXPECT_LE(std::stod(f[share]), 1) << line;
        }
        // Within the private cache's traffic is within the working memory's.
        EXPECT_LE(std::stod(f[28]), std::stod(f[14]) + 1e-3) << line;
        // A reuse distance where some of the span is this core's recent traffic, none elsewhere.
        if (std::stod(f[14]) > 0) {
            EXPECT_GE(std::stod(f[30]), 0) << line;
        }
        if (std::stod(f[30]) < 0) {
            EXPECT_EQ(std::stod(f[14]), 0) << line;
        }
        EXPECT_GE(std::stoull(f[11]) * 64, std::stoull(f[8])) << line;
        if (std::stod(f[17]) > 0)
            ++transfers[f[2]];
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"compute", "load", "store"}));
    EXPECT_GT(convs, 0u);
    for (const auto& s : j["models"][0]["schedules"])
        EXPECT_EQ(transfers[std::to_string(s["mp"].get<int>())], s["transfers"].get<std::size_t>());
    const CliResult bad =
        runCli({"accuracy", samplePath("mobilenet_tiny.onnx"), "--target", "host-uncalibrated",
                "--repeat", "1", "--events", "/nonexistent/dir/e.csv"});
    EXPECT_EQ(bad.exitCode, kBadInput);
}

TEST(AccuracyCommand, RejectsBadArguments) {
    const std::string model = samplePath("resnet_tiny.onnx");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"accuracy", model, "--target", "host-uncalibrated", "--mp", "0"},
          std::vector<std::string>{"accuracy", model, "--target", "host-uncalibrated", "--mp", "x"},
          std::vector<std::string>{"accuracy", model, "--target", "host-uncalibrated",
                                   "--strategies", "greedy"},
          std::vector<std::string>{"accuracy", model, "--target", "host-uncalibrated", "--repeat",
                                   "0"}}) {
        const CliResult r = runCli(args);
        EXPECT_EQ(r.exitCode, kBadInput) << args.back();
        EXPECT_TRUE(containsText(r.err, "error:"));
    }
    const CliResult missing = runCli(
        {"accuracy", "/nonexistent/model.onnx", "--target", "host-uncalibrated", "--json", "-q"});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_TRUE(containsText(missing.out, "could not be imported"));
}

} // namespace
} // namespace strata::cli::test
