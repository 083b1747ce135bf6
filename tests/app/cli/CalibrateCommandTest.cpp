// `strata-cli calibrate --quick`: a smoke test of the measuring loop (the fits themselves are
// tested on synthetic data in tests/core/calibrate). Checks what is written, not how fast.

#include "CliRunner.h"
#include "TempDir.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace strata::cli::test {
namespace {

TEST(CalibrateCommand, QuickRunWritesALoadableCalibratedTarget) {
    TempDir dir;
    const auto output = dir.path() / "host.calibrated.json";
    const auto samples = dir.path() / "samples.csv";
    const CliResult r = runCli({"calibrate", "--quick", "--json", "-q", "-o", output.string(), "--samples", samples.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto report = nlohmann::json::parse(r.out);
    ASSERT_EQ(report["paths"].size(), 2u);
    for (const auto& p : report["paths"]) {
        EXPECT_GT(p["bytes_per_cycle"].get<double>(), 0) << p.dump();
        EXPECT_GE(p["latency_cycles"].get<double>(), 0) << p.dump();
        EXPECT_GE(p["sizes"].get<int>(), 2) << p.dump();
        EXPECT_TRUE(p["rms_relative_error"].is_number());
        for (const char* figure : {"latency", "row_overhead", "bandwidth"})
            EXPECT_GE(p["relative_errors"][figure].get<double>(), 0) << p.dump();
        EXPECT_TRUE(p["refused"].is_array()) << p.dump();
    }
    EXPECT_GT(report["compute"]["classes"].size(), 0u) << report["compute"].dump();
    // With two cores or more, the op-class programs also ran on one core: the work factor of a
    // block on one core, in the report and the target.
    if (report["cores"].get<int>() >= 2) {
        EXPECT_GT(report["compute"]["one_core_samples"].get<int>(), 0) << report["compute"].dump();
        const double factor = report["compute"]["one_core_work_factor"].get<double>();
        EXPECT_GE(factor, 0.5);
        EXPECT_LE(factor, 2.0);
        // And the barriers of the op-class programs on every core: how late the last core is.
        const auto& skew = report["compute"]["join_skew"];
        EXPECT_GT(skew["samples"].get<int>(), 0) << skew.dump();
        EXPECT_GE(skew["coefficient"].get<double>(), 0) << skew.dump();
    }

    std::ifstream in(output);
    ASSERT_TRUE(in.good());
    const auto target = nlohmann::json::parse(in);
    EXPECT_EQ(target["calibrated"], true);
    if (report["compute"]["one_core_work_factor"].get<double>() != 1) {
        EXPECT_EQ(target["compute"]["one_core_work_factor"],
                  report["compute"]["one_core_work_factor"]);
    }
    if (report["compute"]["join_skew"]["coefficient"].get<double>() > 0) {
        EXPECT_EQ(target["compute"]["join_skew"]["coefficient"],
                  report["compute"]["join_skew"]["coefficient"]);
        EXPECT_EQ(target["compute"]["join_skew"]["exponent"],
                  report["compute"]["join_skew"]["exponent"]);
    }
    EXPECT_FALSE(target.contains("detect_host"));
    // The speed check on one core and on every core, in the report and the file's stamp.
    ASSERT_EQ(report["speed_checks"].size(), report["cores"].get<int>() > 1 ? 2u : 1u)
        << report["speed_checks"].dump();
    EXPECT_EQ(report["speed_checks"][0]["cores"], 1);
    EXPECT_EQ(report["speed_checks"].back()["cores"], report["cores"]);
    for (const auto& check : report["speed_checks"])
        EXPECT_GT(check["ns"].get<double>(), 0) << check.dump();
    EXPECT_EQ(target["calibration"]["speed_checks"], report["speed_checks"]);
    for (const auto& p : target["paths"]) EXPECT_EQ(p["issuer_busy"], true) << p.dump();
    EXPECT_EQ(target["paths"][0]["bytes_per_cycle"].get<double>(), report["paths"][0]["bytes_per_cycle"].get<double>());
    // Reads of weights and of what a core stored itself get their own figures on the load path,
    // as reported, unless the fit was refused (and the report says why); the store path reads no
    // main memory.
    for (const char* kind : {"weight_reads", "cached_reads"}) {
        if (report["paths"][0][kind].is_null()) {
            const std::string refused = report["paths"][0]["refused"].dump();
            EXPECT_NE(refused.find(std::string(kind).substr(0, 6)), std::string::npos) << refused;
            EXPECT_FALSE(target["paths"][0].contains(kind));
            continue;
        }
        ASSERT_TRUE(report["paths"][0][kind].is_object()) << report["paths"][0].dump();
        EXPECT_GT(report["paths"][0][kind]["samples"].get<int>(), 0);
        EXPECT_EQ(target["paths"][0][kind]["bytes_per_cycle"], report["paths"][0][kind]["bytes_per_cycle"]);
        EXPECT_EQ(target["paths"][0][kind]["latency_cycles"], report["paths"][0][kind]["latency_cycles"]);
    }
    for (const char* kind : {"weight_reads", "cached_reads"}) {
        EXPECT_TRUE(report["paths"][1][kind].is_null());
        EXPECT_FALSE(target["paths"][1].contains(kind));
    }
    // Stores into lines the core holds get their own figures on the store path, the same way;
    // the load path writes no main memory.
    if (report["paths"][1]["cached_writes"].is_null()) {
        const std::string refused = report["paths"][1]["refused"].dump();
        EXPECT_NE(refused.find("cached lines"), std::string::npos) << refused;
        EXPECT_FALSE(target["paths"][1].contains("cached_writes"));
    } else {
        EXPECT_GT(report["paths"][1]["cached_writes"]["samples"].get<int>(), 0);
        EXPECT_EQ(target["paths"][1]["cached_writes"]["bytes_per_cycle"],
                  report["paths"][1]["cached_writes"]["bytes_per_cycle"]);
    }
    EXPECT_TRUE(report["paths"][0]["cached_writes"].is_null());
    EXPECT_FALSE(target["paths"][0].contains("cached_writes"));

    // The contention programs: each path alone and beside every path, per size; each path's
    // slowdowns read from them (a resource of its own only when the large sizes slow down more).
    if (report["cores"].get<int>() >= 2) {
        std::set<std::string> pairs;
        for (const auto& c : report["contention"])
            pairs.insert(c["path"].get<std::string>() + "/" + c["other_core"].get<std::string>());
        EXPECT_EQ(pairs, (std::set<std::string>{"load/idle", "load/load", "load/store",
                                                "store/idle", "store/load", "store/store"}));
        for (const auto& p : report["paths"])
            EXPECT_GT(p["contention"]["large_slowdown"].get<double>(), 0);
    }

    // Every sample the fits used: isolated and compiled ones on both paths, the skip chains'
    // cached reads and stores, and strided stores among the isolated (rows of a column tile's
    // length, which do not divide the sizes).
    std::ifstream csv(samples);
    std::string line;
    ASSERT_TRUE(std::getline(csv, line));
    EXPECT_EQ(line, "path,source,kind,bytes,rows,cycles,concurrent,reuse_bytes");
    std::set<std::string> seen;
    bool stridedStore = false;
    while (std::getline(csv, line)) {
        std::stringstream fields(line);
        std::string path, source, kind, bytes, rows;
        std::getline(fields, path, ',');
        std::getline(fields, source, ',');
        std::getline(fields, kind, ',');
        std::getline(fields, bytes, ',');
        std::getline(fields, rows, ',');
        seen.insert(path + "/" + source);
        stridedStore = stridedStore || (path == "store" && source == "isolated" && std::stod(rows) > 1 &&
                                        std::llround(std::stod(bytes)) % 1024 != 0);
    }
    EXPECT_EQ(seen, (std::set<std::string>{"load/isolated", "load/compiled", "load/reuse",
                                           "store/isolated", "store/compiled", "store/reuse"}));
    EXPECT_TRUE(stridedStore);

    // The written file is a target the other commands accept.
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", output.string(), "--json", "-q"});
    EXPECT_EQ(e.exitCode, 0) << e.err;
}

TEST(CalibrateCommand, RefusesATargetThatIsNotThisComputer) {
    TempDir dir;
    const CliResult r = runCli({"calibrate", "--target", "mncore2", "-o", (dir.path() / "x.json").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(containsText(r.err, "calibrate measures this computer: use --target host"));
}

TEST(CalibrateCommand, UnwritableOutput) {
    const CliResult r = runCli({"calibrate", "--quick", "-q", "-o", "/nonexistent/dir/host.json"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(containsText(r.err, "cannot write /nonexistent/dir/host.json"));
}

// `microbench --measure` runs the seed's programs on this computer: measured figures next to the
// emulated ones, for every size and kind.
TEST(MicrobenchMeasure, MeasuredNextToEmulated) {
    const CliResult r = runCli({"microbench", "--target", "host", "--kinds", "load,store", "--sizes", "8,512", "--count", "4",
                                "--repeat", "1", "--measure", "--json", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["source"], "emulated and measured");
    ASSERT_EQ(j["rows"].size(), 2u);
    for (const auto& row : j["rows"]) {
        ASSERT_TRUE(row.contains("measured")) << row.dump();
        EXPECT_GT(row["measured"]["mixed_gbps"].get<double>(), 0);
        EXPECT_GT(row["measured"]["alone_gbps"]["load"].get<double>(), 0);
        EXPECT_GT(row["measured"]["alone_gbps"]["store"].get<double>(), 0);
        EXPECT_GT(row["mixed_gbps"].get<double>(), 0);
    }
    const CliResult text = runCli({"microbench", "--target", "host", "--kinds", "load", "--sizes", "64", "--count", "4",
                                   "--repeat", "1", "--measure", "-q"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_TRUE(containsText(text.out, "load emu"));
    EXPECT_TRUE(containsText(text.out, "load act"));
}

TEST(MicrobenchMeasure, RepeatMustBePositive) {
    const CliResult r = runCli({"microbench", "--target", "host", "--kinds", "load", "--measure", "--repeat", "0"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(containsText(r.err, "--repeat: must be at least 1"));
}

} // namespace
} // namespace strata::cli::test
