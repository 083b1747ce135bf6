// The strata-layout helper's protocol: requests and layouts survive the round trip, every kind
// of bad reply is a diagnostic, and the helper itself answers in the protocol.

#include "layout/LayoutProtocol.h"

#include "LayoutGraphs.h"
#include "layout/DotLayout.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace strata::layout {
namespace {

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

LayoutRequest diamondRequest(bool clustered) {
    const auto graph = test::makeDiamond();
    LayoutInput input;
    if (clustered)
        input.blockOfOp = {0, 1, 1, 2};
    auto request = buildLayoutRequest(*graph, input, {});
    EXPECT_TRUE(request.ok());
    return *request;
}

void expectSameLayout(const GraphLayout& a, const GraphLayout& b) {
    EXPECT_EQ(a.bounds, b.bounds);
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        EXPECT_EQ(a.nodes[i].ref, b.nodes[i].ref);
        EXPECT_EQ(a.nodes[i].box, b.nodes[i].box);
        EXPECT_EQ(a.nodes[i].cluster, b.nodes[i].cluster);
    }
    ASSERT_EQ(a.edges.size(), b.edges.size());
    for (std::size_t i = 0; i < a.edges.size(); ++i) {
        EXPECT_EQ(a.edges[i].from, b.edges[i].from);
        EXPECT_EQ(a.edges[i].to, b.edges[i].to);
        EXPECT_EQ(a.edges[i].value, b.edges[i].value);
        EXPECT_EQ(a.edges[i].points, b.edges[i].points);
    }
    ASSERT_EQ(a.clusters.size(), b.clusters.size());
    for (std::size_t i = 0; i < a.clusters.size(); ++i) {
        EXPECT_EQ(a.clusters[i].block, b.clusters[i].block);
        EXPECT_EQ(a.clusters[i].box, b.clusters[i].box);
        EXPECT_EQ(a.clusters[i].label, b.clusters[i].label);
    }
}

TEST(LayoutProtocolTest, ARequestRoundTrips) {
    const LayoutRequest request = diamondRequest(true);
    auto decoded = decodeRequest(encodeRequest(request));
    ASSERT_TRUE(decoded.ok()) << joined(decoded.diagnostics());
    ASSERT_EQ(decoded->nodes.size(), request.nodes.size());
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        EXPECT_EQ(decoded->nodes[i].ref, request.nodes[i].ref);
        EXPECT_EQ(decoded->nodes[i].width, request.nodes[i].width);
        EXPECT_EQ(decoded->nodes[i].height, request.nodes[i].height);
        EXPECT_EQ(decoded->nodes[i].cluster, request.nodes[i].cluster);
    }
    ASSERT_EQ(decoded->edges.size(), request.edges.size());
    for (std::size_t i = 0; i < request.edges.size(); ++i) {
        EXPECT_EQ(decoded->edges[i].from, request.edges[i].from);
        EXPECT_EQ(decoded->edges[i].to, request.edges[i].to);
        EXPECT_EQ(decoded->edges[i].value, request.edges[i].value);
    }
    ASSERT_EQ(decoded->clusters.size(), 3u);
    EXPECT_EQ(decoded->clusters[1].block, 1);
    EXPECT_EQ(decoded->rankSep, request.rankSep);
}

TEST(LayoutProtocolTest, ALayoutRoundTrips) {
    const LayoutRequest request = diamondRequest(true);
    auto layout = layoutWithDot(request);
    ASSERT_TRUE(layout.ok()) << joined(layout.diagnostics());
    auto decoded = decodeLayout(encodeLayout(layout), request);
    ASSERT_TRUE(decoded.ok()) << joined(decoded.diagnostics());
    expectSameLayout(*layout, *decoded);
}

TEST(LayoutProtocolTest, AFailureCarriesTheHelpersDiagnostics) {
    const LayoutRequest request = diamondRequest(false);
    const Expected<GraphLayout> failed(
        error("graphviz could not lay out the graph", Location{.node = "stem"}));
    auto decoded = decodeLayout(encodeLayout(failed), request);
    ASSERT_FALSE(decoded.ok());
    ASSERT_EQ(decoded.diagnostics().size(), 1u);
    EXPECT_EQ(decoded.diagnostics()[0].message, "graphviz could not lay out the graph");
    EXPECT_EQ(decoded.diagnostics()[0].where.node, "stem");
}

// Every malformed reply is refused with a diagnostic that says what is wrong.
TEST(LayoutProtocolTest, MalformedRepliesGiveDiagnostics) {
    const LayoutRequest request = diamondRequest(false);
    auto layout = layoutWithDot(request);
    ASSERT_TRUE(layout.ok());
    const std::string good = encodeLayout(layout);
    const nlohmann::json goodJson = nlohmann::json::parse(good);

    auto expectRefused = [&](const std::string& reply, const std::string& needle) {
        auto decoded = decodeLayout(reply, request);
        ASSERT_FALSE(decoded.ok()) << "accepted: " << reply.substr(0, 200);
        EXPECT_NE(joined(decoded.diagnostics()).find(needle), std::string::npos)
            << "expected '" << needle << "' in:\n"
            << joined(decoded.diagnostics());
    };
    auto edited = [&](auto edit) {
        nlohmann::json copy = goodJson;
        edit(copy);
        return copy.dump();
    };

    expectRefused("", "empty");
    expectRefused("Segmentation fault", "malformed JSON");
    expectRefused(good.substr(0, good.size() / 2), "truncated JSON");
    expectRefused("[1, 2, 3]", "object");
    expectRefused(edited([](auto& j) { j["strata_layout"] = 99; }), "protocol version 99");
    expectRefused(edited([](auto& j) { j.erase("ok"); }), "ok");
    expectRefused(edited([](auto& j) { j["nodes"].erase(0); }), "nodes, the request");
    expectRefused(edited([](auto& j) { j["nodes"][0]["id"] = 77; }), "not the node");
    expectRefused(edited([](auto& j) {
                      j["nodes"][1]["box"] = {1, 2, 3};
                  }),
                  "expected [x, y, width, height]");
    expectRefused(edited([](auto& j) { j["nodes"][1]["box"][2] = -4; }), "must not be negative");
    expectRefused(edited([](auto& j) { j["nodes"][1]["kind"] = "widget"; }), "unknown node kind");
    expectRefused(edited([](auto& j) { j["edges"][0]["to"] = 1000; }), "not the edge");
    expectRefused(edited([](auto& j) { j["edges"][0]["points"] = {1, 2, 3, 4}; }), "3k+1 points");
    expectRefused(edited([](auto& j) { j["edges"][0]["points"][3] = "x"; }), "finite numbers");
    expectRefused(edited([](auto& j) { j["edges"] = "none"; }), "edges");
    expectRefused(edited([](auto& j) { j["clusters"] = {1}; }), "clusters");
    expectRefused(edited([](auto& j) { j["bounds"] = nullptr; }), "bounds");
    expectRefused("{\"strata_layout\": 1, \"ok\": true, \"bounds\": [0, 0, 1e999, 1]}", "finite");
}

TEST(LayoutProtocolTest, MalformedRequestsGiveDiagnostics) {
    const std::string good = encodeRequest(diamondRequest(true));
    nlohmann::json j = nlohmann::json::parse(good);
    EXPECT_FALSE(decodeRequest("").ok());
    EXPECT_FALSE(decodeRequest("{").ok());
    j["nodes"][0]["width"] = -1;
    auto decoded = decodeRequest(j.dump());
    ASSERT_FALSE(decoded.ok());
    EXPECT_NE(joined(decoded.diagnostics()).find("nodes[0]"), std::string::npos)
        << joined(decoded.diagnostics());
    j = nlohmann::json::parse(good);
    j["edges"][0]["from"] = -2;
    decoded = decodeRequest(j.dump());
    ASSERT_FALSE(decoded.ok());
    EXPECT_NE(joined(decoded.diagnostics()).find("edges[0].from"), std::string::npos)
        << joined(decoded.diagnostics());
}

#ifdef STRATA_LAYOUT_HELPER

struct HelperRun {
    int exitCode = -1;
    std::string output;
};

// Runs the helper with `input` on stdin through files in a temporary folder.
HelperRun runHelper(const std::string& input) {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("strata-layout-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path in = dir / "request.json";
    const fs::path out = dir / "reply.json";
    std::ofstream(in, std::ios::binary) << input;
    const std::string command = std::string("'") + STRATA_LAYOUT_HELPER + "' < '" + in.string() +
                                "' > '" + out.string() + "'";
    const int status = std::system(command.c_str());
    HelperRun run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream reply(out, std::ios::binary);
    std::ostringstream text;
    text << reply.rdbuf();
    run.output = text.str();
    fs::remove_all(dir);
    return run;
}

TEST(LayoutHelperTest, TheHelperLaysOutARequest) {
    const LayoutRequest request = diamondRequest(true);
    const HelperRun run = runHelper(encodeRequest(request));
    EXPECT_EQ(run.exitCode, 0);
    auto fromHelper = decodeLayout(run.output, request);
    ASSERT_TRUE(fromHelper.ok()) << joined(fromHelper.diagnostics());
    auto inProcess = layoutWithDot(request);
    ASSERT_TRUE(inProcess.ok());
    expectSameLayout(*inProcess, *fromHelper);
}

TEST(LayoutHelperTest, TheHelperAnswersGarbageInTheProtocol) {
    const LayoutRequest request = diamondRequest(false);
    const HelperRun run = runHelper("this is not a request");
    EXPECT_EQ(run.exitCode, 2);
    auto decoded = decodeLayout(run.output, request);
    ASSERT_FALSE(decoded.ok());
    EXPECT_NE(joined(decoded.diagnostics()).find("malformed JSON"), std::string::npos)
        << joined(decoded.diagnostics());
}

#endif

} // namespace
} // namespace strata::layout
