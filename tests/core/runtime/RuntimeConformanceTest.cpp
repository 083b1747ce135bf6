// The ONNX backend node tests (Debian's libonnx-testdata) through the whole host path: import,
// per-op schedule, compile for the host target, run on the host runtime, compare with the
// suite's expected outputs (rtol 1e-3 as onnx's backend; atol 1e-5, since sgemm sums in another
// order than numpy). A test is supported when every op lowers to a runtime kernel; every
// supported test must pass. Prints passes / supported / total and why the others were not run.

#include "TensorFiles.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/KernelCall.h"
#include "model/OnnxImporter.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <set>

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-5;

std::vector<fs::path> sortedDirs(const fs::path& root, const std::string& prefix) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(root))
        if (e.is_directory() && e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> numbered(const fs::path& dir, const std::string& stem) {
    std::vector<fs::path> out;
    for (int i = 0; fs::exists(dir / (stem + std::to_string(i) + ".pb")); ++i)
        out.push_back(dir / (stem + std::to_string(i) + ".pb"));
    return out;
}

// Why the runtime cannot compute `op` (empty when it can): what compile refuses it with.
std::string refusal(const ir::Graph& g, const ir::Op& op) {
    return compiler::runtimeRefusal(g, op);
}

// "Conv 'n1': why" -> "Conv: why", so one reason counts all the tests it refuses.
std::string withoutNodeName(const std::string& why) {
    const auto open = why.find(" '");
    const auto close = open == std::string::npos ? open : why.find('\'', open + 2);
    if (close == std::string::npos) return why;
    return why.substr(0, open) + (why.compare(close + 1, 1, ":") == 0 ? "" : ":") + why.substr(close + 1);
}

// onnx 1.12 stores bfloat16 test data as uint16 (the same bits).
void relabelBfloat16(reference::Tensor& t, ir::DType wanted) {
    if (wanted == ir::DType::BFloat16 && t.dtype == ir::DType::UInt16)
        t.dtype = wanted;
}

struct DataSet {
    std::vector<reference::Tensor> inputs;   // in graph order
    std::vector<test::NamedTensor> expected; // in file order
    std::string problem;                     // unreadable or incomplete
};

DataSet readDataSet(const ir::Graph& g, const fs::path& dataSet) {
    DataSet out;
    std::vector<test::NamedTensor> given;
    for (const auto& pb : numbered(dataSet, "input_")) {
        auto t = test::readTensorFile(pb);
        if (!t)
            return {.problem = "input unreadable"};
        given.push_back(std::move(*t));
    }
    for (const auto& pb : numbered(dataSet, "output_")) {
        auto t = test::readTensorFile(pb);
        if (!t)
            return {.problem = "output unreadable"};
        out.expected.push_back(std::move(*t));
    }
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        const std::string& name = g.value(g.inputs[i]).name;
        auto it = std::find_if(given.begin(), given.end(), [&](const test::NamedTensor& t) { return t.name == name; });
        if (it == given.end() && given.size() == g.inputs.size()) it = given.begin() + std::ptrdiff_t(i);
        if (it == given.end())
            return {.problem = "no data for input '" + name + "'"};
        out.inputs.push_back(it->tensor);
        relabelBfloat16(out.inputs.back(), g.value(g.inputs[i]).dtype);
    }
    for (std::size_t k = 0; k < out.expected.size() && k < g.outputs.size(); ++k)
        relabelBfloat16(out.expected[k].tensor, g.value(g.outputs[k]).dtype);
    return out;
}

// Empty when `outputs` match the data set's expected ones within (atol, rtol).
std::string mismatches(const std::vector<reference::Tensor>& outputs, const DataSet& data,
                       double atol) {
    if (outputs.size() != data.expected.size())
        return "output count differs";
    std::string problems;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const auto c = reference::compare(outputs[k], data.expected[k].tensor, atol, kRtol);
        if (!c.ok) problems += "output " + std::to_string(k) + ": " + c.message + "; ";
    }
    return problems;
}

// Whether the reference evaluator passes every data set (onnx's tolerances, as its own
// conformance test): what the runtime is held to.
bool referencePasses(const ir::Graph& g, const std::vector<fs::path>& dataSets) {
    for (const auto& ds : dataSets) {
        const DataSet data = readDataSet(g, ds);
        if (!data.problem.empty())
            return false;
        auto outputs = reference::evaluate(g, data.inputs);
        if (!outputs || !mismatches(*outputs, data, 1e-7).empty())
            return false;
    }
    return true;
}

// Runs one data set; empty when every output matches.
std::string runDataSet(const ir::Graph& g, const compiler::Program& program,
                       const target::Target& target, const fs::path& dataSet) {
    const DataSet data = readDataSet(g, dataSet);
    if (!data.problem.empty())
        return data.problem;
    auto result = runtime::run(program, target, g, data.inputs);
    if (!result)
        return "run failed: " + result.diagnostics().front().message;
    return mismatches(result->outputs, data, kAtol);
}

struct SuiteResult {
    int total = 0, imported = 0, supported = 0, passed = 0, notCompiled = 0;
    int bound = 0;                          // imported once shape-giving inputs were made constants
    std::map<std::string, int> unsupported; // why not supported (first refusal) -> tests
    std::vector<std::string> failures;
    std::set<std::string> exercised;
};

SuiteResult runSuite(const fs::path& root, const target::Target& target) {
    SuiteResult r;
    for (const auto& dir : sortedDirs(root, "test_")) {
        if (!fs::exists(dir / "model.onnx")) continue;
        ++r.total;
        const auto dataSets = sortedDirs(dir, "test_data_set_");
        model::ImportOptions options;
        if (!dataSets.empty())
            for (const auto& pb : numbered(dataSets.front(), "input_"))
                if (auto t = test::readTensorFile(pb); t && !t->name.empty()) options.inputShapes[t->name] = t->tensor.shape;
        auto model = model::importOnnxFile((dir / "model.onnx").string(), options);
        std::vector<fs::path> sets = dataSets;
        if (!model && !dataSets.empty()) {
            // As the reference's node test: inputs that give shapes (Reshape's shape, Pad's pads,
            // Resize's scales) bound as constants, integer ones first, then all but the first.
            model = test::importWithInputsBound(dir, dataSets.front(), options, false);
            if (!model)
                model = test::importWithInputsBound(dir, dataSets.front(), options, true);
            if (model) {
                ++r.bound;
                sets = {dataSets.front()}; // other data sets may hold other values
            }
        }
        if (!model) { // import coverage is ConformanceTest's business
            ++r.unsupported["does not import with the data's input shapes (a shape depends on "
                            "input data, or the "
                            "importer refuses it; see ConformanceTest)"];
            continue;
        }
        ++r.imported;
        const ir::Graph& g = *model->graph;
        std::string why;
        for (const ir::Op& op : g.ops)
            if (why = refusal(g, op); !why.empty()) break;
        if (g.ops.empty()) why = "no ops left after import";
        if (why.empty() && !referencePasses(g, sets))
            why = "the reference evaluator does not pass it";
        if (!why.empty()) {
            ++r.unsupported[withoutNodeName(why)];
            continue;
        }
        ++r.supported;
        auto compiled = compiler::compile(g, target, schedule::makeSchedule(g, target, schedule::Strategy::PerOp));
        if (!compiled) {
            r.failures.push_back(dir.filename().string() + ": does not compile: " + compiled.diagnostics().front().message);
            continue;
        }
        std::string problems;
        for (const auto& ds : sets)
            if (std::string p = runDataSet(g, compiled->program, target, ds); !p.empty())
                problems += ds.filename().string() + ": " + p;
        if (problems.empty()) {
            ++r.passed;
            for (const ir::Op& op : g.ops) r.exercised.insert(op.type);
        } else {
            r.failures.push_back(dir.filename().string() + ": " + problems);
        }
    }
    return r;
}

const fs::path kRoot = STRATA_ONNX_TESTDATA;

TEST(RuntimeConformance, OnnxBackendNodeTests) {
    ASSERT_TRUE(fs::is_directory(kRoot / "node")) << kRoot << " is missing: install libonnx-testdata";
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target);
    const SuiteResult r = runSuite(kRoot / "node", *target);
    std::cout << "host runtime conformance (node): " << r.passed << " passed / " << r.supported
              << " supported / " << r.total << " tests (" << r.imported << " imported, " << r.bound
              << " of them with shape-giving inputs bound as constants)\n  not supported (the "
                 "first reason of each):\n";
    for (const auto& [reason, n] : r.unsupported) std::cout << "    " << n << " x " << reason << '\n';
    for (const auto& f : r.failures) ADD_FAILURE() << f;
    EXPECT_EQ(r.passed, r.supported);
    EXPECT_GT(r.supported, 600);
    std::string untested;
    for (const auto& type : compiler::kernelOpTypes())
        if (!r.exercised.count(type)) untested += " " + type;
    std::cout << "  runtime op types: " << compiler::kernelOpTypes().size() << ", " << r.exercised.size()
              << " exercised by passing node tests; not exercised:" << untested << '\n';
}

} // namespace
} // namespace strata
