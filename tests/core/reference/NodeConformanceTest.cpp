// The ONNX backend node tests (Debian's libonnx-testdata) through the reference evaluator:
// every test whose model imports and whose ops the evaluator supports must reproduce the
// suite's expected outputs (onnx's backend tolerances: rtol 1e-3, atol 1e-7; exact for integral
// and bool outputs). Prints passes / supported / total and why the others were skipped.

#include "TensorFiles.h"
#include "model/OnnxImporter.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <onnx/onnx_pb.h>
#include <set>

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

std::vector<fs::path> sortedDirs(const fs::path& root, const std::string& prefix) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(root))
        if (e.is_directory() && e.path().filename().string().rfind(prefix, 0) == 0)
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> numbered(const fs::path& dir, const std::string& stem) {
    std::vector<fs::path> out;
    for (int i = 0; fs::exists(dir / (stem + std::to_string(i) + ".pb")); ++i)
        out.push_back(dir / (stem + std::to_string(i) + ".pb"));
    return out;
}

// onnx 1.12 stores bfloat16 test data as uint16 (the same bits).
void relabelBfloat16(reference::Tensor& t, ir::DType wanted) {
    if (wanted == ir::DType::BFloat16 && t.dtype == ir::DType::UInt16)
        t.dtype = wanted;
}

// Runs one test data set; returns an empty string when every output matches.
std::string runDataSet(const ir::Graph& g, const fs::path& dataSet) {
    std::vector<test::NamedTensor> given, expected;
    for (const auto& pb : numbered(dataSet, "input_")) {
        auto t = test::readTensorFile(pb);
        if (!t)
            return "input unreadable: " + t.diagnostics().front().toString();
        given.push_back(std::move(*t));
    }
    for (const auto& pb : numbered(dataSet, "output_")) {
        auto t = test::readTensorFile(pb);
        if (!t)
            return "output unreadable: " + t.diagnostics().front().toString();
        expected.push_back(std::move(*t));
    }
    // Inputs by name, or by position when the files are unnamed.
    std::vector<reference::Tensor> inputs;
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        const std::string& name = g.value(g.inputs[i]).name;
        auto it = std::find_if(given.begin(), given.end(),
                               [&](const test::NamedTensor& t) { return t.name == name; });
        if (it == given.end() && given.size() == g.inputs.size())
            it = given.begin() + std::ptrdiff_t(i);
        if (it == given.end())
            return "no data for input '" + name + "'";
        inputs.push_back(it->tensor);
        relabelBfloat16(inputs.back(), g.value(g.inputs[i]).dtype);
    }
    auto outputs = reference::evaluate(g, inputs);
    if (!outputs)
        return "evaluation failed: " + outputs.diagnostics().front().toString();
    if (outputs->size() != expected.size())
        return std::to_string(outputs->size()) + " outputs, " + std::to_string(expected.size()) +
               " expected";
    std::string problems;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        relabelBfloat16(expected[k].tensor, (*outputs)[k].dtype);
        const auto c = reference::compare((*outputs)[k], expected[k].tensor, kAtol, kRtol);
        if (!c.ok)
            problems += "output " + std::to_string(k) + ": " + c.message + "; ";
    }
    return problems;
}

struct SuiteResult {
    int total = 0, imported = 0, supported = 0, passed = 0;
    int bound = 0;                          // imported once some inputs were made constants
    std::map<std::string, int> unsupported; // reason -> models
    std::vector<std::string> failures;
    std::set<std::string> exercised; // op types of the models that passed
};

// Walks one suite of the backend test data: import (with static input shapes taken from the
// first data set), skip models with an op the evaluator does not support, evaluate every data
// set and compare.
SuiteResult runSuite(const fs::path& root) {
    SuiteResult r;
    for (const auto& dir : sortedDirs(root, "test_")) {
        if (!fs::exists(dir / "model.onnx"))
            continue;
        ++r.total;
        const auto dataSets = sortedDirs(dir, "test_data_set_");
        model::ImportOptions options;
        if (!dataSets.empty())
            for (const auto& pb : numbered(dataSets.front(), "input_"))
                if (auto t = test::readTensorFile(pb); t && !t->name.empty())
                    options.inputShapes[t->name] = t->tensor.shape;
        auto model = model::importOnnxFile((dir / "model.onnx").string(), options);
        std::vector<fs::path> sets = dataSets;
        if (!model && !dataSets.empty()) {
            // Shapes that depend on inputs (Reshape's shape, Pad's pads, Upsample's scales) are
            // constants in exported models: bind them from the data and try again, integer
            // inputs first, then every input after the first.
            model = test::importWithInputsBound(dir, dataSets.front(), options, false);
            if (!model)
                model = test::importWithInputsBound(dir, dataSets.front(), options, true);
            if (model) {
                ++r.bound;
                sets = {dataSets.front()}; // other data sets may hold other integers
            }
        }
        if (!model)
            continue; // import coverage is ConformanceTest's business
        ++r.imported;
        const ir::Graph& g = *model->graph;
        auto unsupported = std::find_if(g.ops.begin(), g.ops.end(), [&](const ir::Op& op) {
            return !reference::supports(g, op);
        });
        if (unsupported != g.ops.end()) {
            ++r.unsupported[reference::unsupportedReason(g, *unsupported)];
            continue;
        }
        ++r.supported;
        std::string problems;
        for (const auto& ds : sets) {
            const std::string p = runDataSet(g, ds);
            if (!p.empty())
                problems += ds.filename().string() + ": " + p;
        }
        if (problems.empty()) {
            ++r.passed;
            for (const ir::Op& op : g.ops)
                r.exercised.insert(op.type);
        } else
            r.failures.push_back(dir.filename().string() + ": " + problems);
    }
    return r;
}

void report(const std::string& suite, const SuiteResult& r) {
    std::cout << "reference conformance (" << suite << "): " << r.passed << " passed / "
              << r.supported << " supported / " << r.total << " tests (" << r.imported
              << " imported, " << r.bound
              << " of them with shape-giving inputs bound as constants)\n";
    std::cout << "  not supported (first unsupported op of each imported model):\n";
    for (const auto& [reason, n] : r.unsupported)
        std::cout << "    " << n << " x " << reason << '\n';
    for (const auto& f : r.failures)
        ADD_FAILURE() << suite << "/" << f;
}

const fs::path kRoot = STRATA_ONNX_TESTDATA;

// Issue 6's rule: every test of every op kind the evaluator claims to support passes.
TEST(ReferenceConformance, OnnxBackendNodeTests) {
    ASSERT_TRUE(fs::is_directory(kRoot / "node"))
        << kRoot << " is missing: install libonnx-testdata";
    const SuiteResult r = runSuite(kRoot / "node");
    report("node", r);
    EXPECT_EQ(r.passed, r.supported);
    EXPECT_GT(r.total, 900);
    EXPECT_GT(r.supported, 550);
    std::string untested;
    for (const auto& type : reference::supportedOpTypes())
        if (!r.exercised.count(type))
            untested += " " + type;
    std::cout << "  supported op types: " << reference::supportedOpTypes().size() << ", "
              << r.exercised.size() << " of them in passing node tests; not exercised:" << untested
              << '\n';
}

// Whole small models as PyTorch exports them, and the suite's simple models.
TEST(ReferenceConformance, OnnxBackendModelTests) {
    for (const char* suite : {"pytorch-converted", "pytorch-operator", "simple"}) {
        ASSERT_TRUE(fs::is_directory(kRoot / suite)) << suite;
        const SuiteResult r = runSuite(kRoot / suite);
        report(suite, r);
        EXPECT_EQ(r.passed, r.supported) << suite;
        EXPECT_GT(r.supported, 0) << suite;
    }
}

} // namespace
} // namespace strata
