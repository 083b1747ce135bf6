#pragma once
// Builds one ONNX model node by node: graph inputs/outputs, nodes with attributes, initializers
// with deterministic random weights, and Constant nodes. Every node and value name is checked
// for uniqueness because the importer (and onnx's checker) rely on it.

#include "Prng.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace strata::samples {

// One node attribute; the alternative held picks the ONNX attribute type.
struct Attr {
    std::string name;
    std::variant<std::int64_t, float, std::string, std::vector<std::int64_t>> value;
};

// A dim of a graph input or output: a fixed size or a symbolic one such as "N".
using Dim = std::variant<std::int64_t, std::string>;

inline constexpr std::int64_t kIrVersion = 8;
inline constexpr std::int64_t kOpsetVersion = 17;
inline constexpr float kWeightAmplitude = 0.1f;

class OnnxBuilder {
  public:
    OnnxBuilder(const std::string& graphName, std::uint64_t seed);

    // Float graph inputs and outputs.
    void addInput(const std::string& name, const std::vector<Dim>& dims);
    void addOutput(const std::string& name, const std::vector<Dim>& dims);

    // Adds a node with a single output and returns the output's name: `output` if given,
    // otherwise "<name>_out".
    std::string node(std::string_view opType, const std::string& name,
                     const std::vector<std::string>& inputs, const std::vector<Attr>& attrs = {},
                     const std::string& output = {});

    // A float initializer of `center` plus uniform noise in [-0.1, 0.1); returns its name.
    std::string randomWeight(const std::string& name, const std::vector<std::int64_t>& dims,
                             float center = 0.0f);
    std::string floatInitializer(const std::string& name, const std::vector<std::int64_t>& dims,
                                 const std::vector<float>& values);

    // Constant nodes, the way torch exports small shape and scalar constants. Return the
    // output value's name.
    std::string constantFloats(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<float>& values);
    std::string constantInt64s(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<std::int64_t>& values);

    int nodeCount() const { return m_graph->node_size(); }

    // Hands over the finished model; the builder must not be used afterwards.
    onnx::ModelProto finish(const std::string& docString);

  private:
    void claimValueName(const std::string& name);
    // Adds a Constant node; returns its output name and the tensor to fill.
    std::pair<std::string, onnx::TensorProto&> addConstantNode(const std::string& name);

    onnx::ModelProto m_model;
    onnx::GraphProto* m_graph;
    SplitMix64 m_rng;
    std::unordered_set<std::string> m_nodeNames;
    std::unordered_set<std::string> m_valueNames;
};

} // namespace strata::samples
