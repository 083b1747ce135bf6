// Every rejected input gets a diagnostic that says what is wrong (Halide's test/error).

#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <unistd.h>

namespace strata {
namespace {

using test::importProto;
using test::importText;
using test::mentions;

Expected<model::ImportedModel> importBytes(const std::string& bytes) {
    return model::importOnnxBytes({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()},
                                  "bad.onnx", "");
}

#define EXPECT_REJECTED(result, needle)                                                            \
    do {                                                                                           \
        const auto& r_ = (result);                                                                 \
        ASSERT_FALSE(r_.ok()) << "expected a diagnostic mentioning: " << (needle);                 \
        EXPECT_TRUE(mentions(r_.diagnostics(), needle)) << test::joined(r_.diagnostics());         \
    } while (0)

const char* kRelu = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    Y = Relu (X)
}
)";

TEST(BadInput, EmptyFile) { EXPECT_REJECTED(importBytes(""), "the file is empty"); }

TEST(BadInput, TruncatedFile) {
    const std::string bytes = test::modelBytes(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X, float[3, 3] W) => (float[2, 3] Y) {
    Y = MatMul (X, W)
}
)");
    for (std::size_t cut : {bytes.size() / 2, bytes.size() - 1, std::size_t(3)})
        EXPECT_REJECTED(importBytes(bytes.substr(0, cut)), "truncated or corrupt");
}

TEST(BadInput, GarbageBytes) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        std::string bytes(64 + trial * 13, '\0');
        for (char& c : bytes) c = char(rng());
        auto r = importBytes(bytes);
        ASSERT_FALSE(r.ok());
        EXPECT_TRUE(mentions(r.diagnostics(), "not") || mentions(r.diagnostics(), "ONNX"))
            << test::joined(r.diagnostics());
    }
}

TEST(BadInput, PngRenamedOnnx) {
    std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    EXPECT_REJECTED(importBytes(png + std::string(100, 'x')), "a PNG image");
}

TEST(BadInput, ModelFileOver2GiB) {
    test::TempDir dir;
    const auto path = dir.path() / "huge.onnx";
    { std::ofstream(path) << "x"; }
    // A sparse file: no disk space used, but the size says 2 GiB + 1.
    ASSERT_EQ(::truncate(path.c_str(), (1LL << 31) + 1), 0);
    EXPECT_REJECTED(model::importOnnxFile(path.string()), "cannot exceed 2 GiB");
}

TEST(BadInput, LengthFieldClaimingHugeSize) {
    // Field 7 (graph), length-delimited, claiming 2^40 bytes.
    std::string bytes = "\x08\x08"; // ir_version = 8
    bytes += "\x3a";
    std::uint64_t len = 1ULL << 40;
    while (len >= 0x80) {
        bytes += char((len & 0x7f) | 0x80);
        len >>= 7;
    }
    bytes += char(len);
    bytes += "abc";
    EXPECT_REJECTED(importBytes(bytes), "truncated or corrupt");
}

TEST(BadInput, RawDataLengthMismatch) {
    auto m = test::modelProto(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X, float[3, 3] W) => (float[2, 3] Y) {
    Y = MatMul (X, W)
}
)");
    onnx::TensorProto* w = m.mutable_graph()->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(3);
    w->add_dims(3);
    w->set_raw_data(std::string(35, '\0'));
    EXPECT_REJECTED(importProto(m), "raw_data holds 35 bytes but dims need 36");
}

TEST(BadInput, NegativeZeroAndHugeDims) {
    auto withDim = [](std::int64_t d) {
        auto m = test::modelProto(kRelu);
        m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()
            ->mutable_shape()->mutable_dim(0)->set_dim_value(d);
        return importProto(m);
    };
    EXPECT_REJECTED(withDim(-3), "negative dimension -3 at axis 0");
    EXPECT_REJECTED(withDim(0), "dimension 0 at axis 0");
    EXPECT_REJECTED(withDim(1LL << 62), "exceed 2^40 elements");

    auto m = test::modelProto(kRelu);
    auto* t = m.mutable_graph()->add_initializer();
    t->set_name("unused");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(-1);
    EXPECT_REJECTED(importProto(m), "tensor has negative dimension -1");
}

TEST(BadInput, InputNothingProduces) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    Y = Add (X, Ghost)
}
)"),
                    "input 'Ghost' of op 'Add' is not produced by any node");
}

TEST(BadInput, Cycle) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    A = Add (X, B)
    B = Relu (A)
    Y = Neg (B)
}
)"),
                    "the graph has a cycle");
}

TEST(BadInput, DuplicateValueNames) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    T = Relu (X)
    T = Neg (X)
    Y = Abs (T)
}
)"),
                    "value 'T' is defined twice");
}

TEST(BadInput, DuplicateNodeNamesAreRenamed) {
    auto m = test::modelProto(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    T = Relu (X)
    Y = Neg (T)
}
)");
    m.mutable_graph()->mutable_node(0)->set_name("same");
    m.mutable_graph()->mutable_node(1)->set_name("same");
    auto r = importProto(m);
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    EXPECT_TRUE(mentions(r->warnings, "renamed"));
    EXPECT_EQ(r->graph->ops[0].name, "same");
    EXPECT_EQ(r->graph->ops[1].name, "same_1");
}

TEST(BadInput, UnknownOpAndDomain) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X) => (float[2, 3] Y) {
    Y = FrobnicateTensor (X)
}
)"),
                    "No Op registered for FrobnicateTensor");
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
g (float[2, 3] X) => (float[2, 3] Y) {
    Y = com.example.Custom (X)
}
)"),
                    "in domain 'com.example', which Strata does not support");
}

TEST(BadInput, AttributeOfWrongType) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 3, 8, 8] X, float[4, 3, 3, 3] W) => (float[1, 4, 6, 6] Y) {
    Y = Conv <kernel_shape = 3.0> (X, W)
}
)"),
                    "kernel_shape");
}

TEST(BadInput, AttributeOutOfRange) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 3, 8, 8] X, float[4, 3, 3, 3] W) => (float[1, 4, 6, 6] Y) {
    Y = Conv <strides = [0, 1]> (X, W)
}
)"),
                    "attribute 'strides' has value 0; it must be at least 1");
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 3, 8, 8] X, float[4, 3, 3, 3] W) => (float[1, 4, 6, 6] Y) {
    Y = Conv <group = 0> (X, W)
}
)"),
                    "attribute 'group' has value 0");
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 3, 8, 8] X) => (float[1, 3, 8, 8] Y) {
    Y = Softmax <axis = 7> (X)
}
)"),
                    "shape inference failed");
}

// Found by fuzz_OnnxImport (docs/FUZZING.md): resnet_tiny with one convolution's pads widened, so
// its residual Add adds incompatible shapes. onnx's data propagation crashed on the nodes after
// it; without it, import stops at the Add with its reason.
TEST(BadInput, ResidualOfAnotherShapeIsRefusedNotACrash) {
    EXPECT_REJECTED(
        model::importOnnxFile(
            std::string(STRATA_SAMPLES_DIR) +
            "/../tests/fuzz/corpus/OnnxImport/conv-pads-wider-than-its-residual.onnx"),
        "(op_type:Add, node name: layer1/add): [ShapeInferenceError] Incompatible dimensions");
}

TEST(BadInput, IncompatibleShapes) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] X, float[4, 5] Z) => (float[2, 3] Y) {
    Y = Add (X, Z)
}
)"),
                    "shape inference failed");
}

TEST(BadInput, EmptyGraph) {
    auto m = test::modelProto(kRelu);
    m.mutable_graph()->clear_node();
    EXPECT_REJECTED(importProto(m), "the graph has no nodes");
}

TEST(BadInput, NonUtf8AndHugeNames) {
    auto m = test::modelProto(kRelu);
    m.mutable_graph()->mutable_node(0)->set_name("bad\xff\xfename");
    EXPECT_REJECTED(importProto(m), "is not valid UTF-8");

    m = test::modelProto(kRelu);
    m.mutable_graph()->mutable_node(0)->set_name(std::string(1 << 20, 'n'));
    EXPECT_REJECTED(importProto(m), "is 1048576 bytes long");

    m = test::modelProto(kRelu);
    m.mutable_graph()->mutable_input(0)->set_name(std::string(1 << 20, 'x'));
    EXPECT_REJECTED(importProto(m), "names are limited to 4096 bytes");
}

TEST(BadInput, MissingGraphOrOpset) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    EXPECT_REJECTED(importProto(m), "has no graph");
    auto noOpset = test::modelProto(kRelu);
    noOpset.clear_opset_import();
    EXPECT_REJECTED(importProto(noOpset), "imports no opset of the default ONNX domain");
}

TEST(BadInput, ControlFlowAndSequences) {
    auto m = test::modelProto(kRelu);
    auto* attr = m.mutable_graph()->mutable_node(0)->add_attribute();
    attr->set_name("then_branch");
    attr->set_type(onnx::AttributeProto::GRAPH);
    attr->mutable_g()->set_name("sub");
    EXPECT_REJECTED(importProto(m), "control flow");

    auto seq = test::modelProto(kRelu);
    auto* type = seq.mutable_graph()->mutable_input(0)->mutable_type();
    type->clear_tensor_type();
    type->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(1);
    EXPECT_REJECTED(importProto(seq), "is a sequence");
}

TEST(BadInput, UnknownInputShapeOverride) {
    model::ImportOptions options;
    options.inputShapes["nosuch"] = {1, 2};
    EXPECT_REJECTED(importText(kRelu, options), "--input-shape names 'nosuch'");
}

TEST(BadInput, DataDependentShapeIsRejectedClearly) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[6] X) => (int64[1, N] Y) {
    Y = NonZero (X)
}
)"),
                    "its shape is not static");
}

TEST(BadInput, CorruptedSamplesNeverCrash) {
    // Flip, zero or truncate bytes of a real model: every variant imports or is rejected with
    // a diagnostic; none may crash (the sanitizer preset runs this too).
    std::ifstream in(std::string(STRATA_SAMPLES_DIR) + "/transformer_block.onnx", std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), {});
    ASSERT_GT(original.size(), 1000u);
    std::mt19937 rng(1234);
    int rejected = 0;
    for (int trial = 0; trial < 300; ++trial) {
        std::string bytes = original;
        const int edits = 1 + trial % 8;
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % bytes.size();
            switch (rng() % 3) {
            case 0: bytes[at] = char(rng()); break;
            case 1: bytes[at] = 0; break;
            default: bytes[at] ^= char(1 << (rng() % 8)); break;
            }
        }
        if (trial % 10 == 0) bytes.resize(rng() % bytes.size());
        auto r = importBytes(bytes);
        if (!r.ok()) {
            ++rejected;
            EXPECT_TRUE(hasErrors(r.diagnostics()));
        }
    }
    EXPECT_GT(rejected, 0);
}

TEST(BadInput, MissingFile) {
    EXPECT_REJECTED(model::importOnnxFile("/nonexistent/model.onnx"), "cannot open file");
}

} // namespace
} // namespace strata
