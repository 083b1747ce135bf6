// Walks the ONNX backend test suite (Debian's libonnx-testdata): every model imports with all
// shapes static, or is rejected with a diagnostic; none crashes. Imported models' output shapes
// must equal the shapes of the suite's expected outputs.

#include "model/OnnxImporter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace strata {
namespace {

namespace fs = std::filesystem;

// Dims of a serialized TensorProto: field 1, packed or not. Read by hand so this test links only
// core (the suite's .pb files are tiny).
std::optional<ir::Shape> readDims(const fs::path& pb) {
    std::ifstream in(pb, std::ios::binary);
    std::string b((std::istreambuf_iterator<char>(in)), {});
    std::size_t i = 0;
    auto varint = [&](std::uint64_t& v) {
        v = 0;
        for (int shift = 0; i < b.size() && shift < 64; shift += 7) {
            const auto c = std::uint8_t(b[i++]);
            v |= std::uint64_t(c & 0x7f) << shift;
            if (!(c & 0x80)) return true;
        }
        return false;
    };
    ir::Shape dims;
    while (i < b.size()) {
        std::uint64_t key = 0, v = 0;
        if (!varint(key)) return std::nullopt;
        const auto field = key >> 3, wire = key & 7;
        if (wire == 0) {
            if (!varint(v)) return std::nullopt;
            if (field == 1) dims.push_back(std::int64_t(v));
        } else if (wire == 2) {
            if (!varint(v) || i + v > b.size()) return std::nullopt;
            if (field == 1) {
                const std::size_t end = i + v;
                while (i < end) {
                    std::uint64_t d = 0;
                    if (!varint(d)) return std::nullopt;
                    dims.push_back(std::int64_t(d));
                }
            } else {
                i += v;
            }
        } else if (wire == 5) {
            i += 4;
        } else if (wire == 1) {
            i += 8;
        } else {
            return std::nullopt;
        }
    }
    return dims;
}

TEST(Conformance, OnnxBackendSuite) {
    const fs::path root = STRATA_ONNX_TESTDATA;
    ASSERT_TRUE(fs::is_directory(root)) << root << " is missing: install libonnx-testdata";
    int total = 0, imported = 0, rejected = 0, outputsChecked = 0;
    std::map<std::string, int> rejectedBySuite;
    std::vector<std::string> mismatches;
    for (const char* suite : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
        std::vector<fs::path> models;
        for (const auto& entry : fs::directory_iterator(root / suite))
            if (fs::exists(entry.path() / "model.onnx")) models.push_back(entry.path());
        std::sort(models.begin(), models.end());
        for (const auto& dir : models) {
            ++total;
            auto r = model::importOnnxFile((dir / "model.onnx").string());
            if (!r.ok()) {
                ++rejected;
                ++rejectedBySuite[suite];
                EXPECT_FALSE(r.diagnostics().empty());
                EXPECT_FALSE(r.diagnostics().front().message.empty()) << dir;
                continue;
            }
            ++imported;
            const ir::Graph& g = *r->graph;
            for (const auto& v : g.values) {
                EXPECT_NE(v.dtype, ir::DType::Undefined) << dir << ": " << v.name;
                for (auto d : v.shape) EXPECT_GE(d, 0) << dir << ": " << v.name;
            }
            for (std::size_t k = 0; k < g.outputs.size(); ++k) {
                const auto pb = dir / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb");
                if (!fs::exists(pb)) continue;
                auto dims = readDims(pb);
                if (!dims) continue;
                ++outputsChecked;
                if (*dims != g.value(g.outputs[k]).shape)
                    mismatches.push_back(dir.filename().string() + " output " + std::to_string(k) +
                                         ": expected " + ir::shapeToString(*dims) + ", imported " +
                                         ir::shapeToString(g.value(g.outputs[k]).shape));
            }
        }
    }
    std::cout << "conformance: " << total << " models, " << imported << " imported, " << rejected
              << " rejected with a diagnostic (";
    for (const auto& [suite, n] : rejectedBySuite) std::cout << suite << " " << n << "; ";
    std::cout << "), " << outputsChecked << " output shapes compared\n";
    for (const auto& m : mismatches) std::cout << "  shape mismatch: " << m << '\n';
    EXPECT_EQ(imported + rejected, total);
    EXPECT_TRUE(mismatches.empty());
    EXPECT_GT(total, 900);
}

} // namespace
} // namespace strata
