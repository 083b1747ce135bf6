// The ONNX backend node tests (Debian's libonnx-testdata) through the reference evaluator:
// every test whose model imports and whose ops the evaluator supports must reproduce the
// suite's expected outputs (onnx's backend tolerances: rtol 1e-3, atol 1e-7; exact for integral
// and bool outputs). Prints passes / supported / total and why the others were skipped.

#include "TensorFiles.h"

#include "model/OnnxImporter.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

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
    if (wanted == ir::DType::BFloat16 && t.dtype == ir::DType::UInt16) t.dtype = wanted;
}

// Runs one test data set; returns an empty string when every output matches.
std::string runDataSet(const ir::Graph& g, const fs::path& dataSet) {
    std::vector<test::NamedTensor> given, expected;
    for (const auto& pb : numbered(dataSet, "input_")) {
        auto t = test::readTensorFile(pb);
        if (!t) return "input unreadable: " + t.diagnostics().front().toString();
        given.push_back(std::move(*t));
    }
    for (const auto& pb : numbered(dataSet, "output_")) {
        auto t = test::readTensorFile(pb);
        if (!t) return "output unreadable: " + t.diagnostics().front().toString();
        expected.push_back(std::move(*t));
    }
    // Inputs by name, or by position when the files are unnamed.
    std::vector<reference::Tensor> inputs;
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        const std::string& name = g.value(g.inputs[i]).name;
        auto it = std::find_if(given.begin(), given.end(),
                               [&](const test::NamedTensor& t) { return t.name == name; });
        if (it == given.end() && given.size() == g.inputs.size()) it = given.begin() + std::ptrdiff_t(i);
        if (it == given.end()) return "no data for input '" + name + "'";
        inputs.push_back(it->tensor);
        relabelBfloat16(inputs.back(), g.value(g.inputs[i]).dtype);
    }
    auto outputs = reference::evaluate(g, inputs);
    if (!outputs) return "evaluation failed: " + outputs.diagnostics().front().toString();
    if (outputs->size() != expected.size())
        return std::to_string(outputs->size()) + " outputs, " + std::to_string(expected.size()) +
               " expected";
    std::string problems;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        relabelBfloat16(expected[k].tensor, (*outputs)[k].dtype);
        const auto c = reference::compare((*outputs)[k], expected[k].tensor, kAtol, kRtol);
        if (!c.ok) problems += "output " + std::to_string(k) + ": " + c.message + "; ";
    }
    return problems;
}

TEST(ReferenceConformance, OnnxBackendNodeTests) {
    const fs::path root = fs::path(STRATA_ONNX_TESTDATA) / "node";
    ASSERT_TRUE(fs::is_directory(root)) << root << " is missing: install libonnx-testdata";
    int total = 0, imported = 0, supported = 0, passed = 0;
    std::map<std::string, int> unsupportedTypes;
    std::vector<std::string> failures;
    for (const auto& dir : sortedDirs(root, "test_")) {
        if (!fs::exists(dir / "model.onnx")) continue;
        ++total;
        const auto dataSets = sortedDirs(dir, "test_data_set_");
        // Static input shapes from the first data set, for models with dynamic dims.
        model::ImportOptions options;
        if (!dataSets.empty())
            for (const auto& pb : numbered(dataSets.front(), "input_"))
                if (auto t = test::readTensorFile(pb); t && !t->name.empty())
                    options.inputShapes[t->name] = t->tensor.shape;
        auto model = model::importOnnxFile((dir / "model.onnx").string(), options);
        if (!model) continue; // import coverage is ConformanceTest's business
        ++imported;
        const ir::Graph& g = *model->graph;
        std::string unsupported;
        for (const ir::Op& op : g.ops)
            if (!reference::supports(g, op)) {
                unsupported = op.type;
                ++unsupportedTypes[reference::unsupportedReason(g, op)];
                break;
            }
        if (!unsupported.empty()) continue;
        ++supported;
        std::string problems;
        for (const auto& ds : dataSets) {
            const std::string p = runDataSet(g, ds);
            if (!p.empty()) problems += ds.filename().string() + ": " + p;
        }
        if (problems.empty()) ++passed;
        else failures.push_back(dir.filename().string() + ": " + problems);
    }
    std::cout << "reference conformance: " << passed << " passed / " << supported
              << " supported / " << total << " node tests (" << imported << " imported)\n";
    std::cout << "not supported (first unsupported op of each imported model):\n";
    for (const auto& [reason, n] : unsupportedTypes) std::cout << "  " << n << " x " << reason << '\n';
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_EQ(passed, supported);
    EXPECT_GT(total, 900);
}

} // namespace
} // namespace strata
