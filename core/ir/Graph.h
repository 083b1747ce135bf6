#pragma once
// Strata's graph IR: the compute graph a user thinks of, after ONNX import, constant folding of
// shape-only subgraphs and removal of Identity. All shapes are static. Immutable once built;
// share it as std::shared_ptr<const Graph>.

#include "base/StrongId.h"
#include "ir/Attribute.h"
#include "ir/DType.h"
#include "ir/OpClass.h"
#include "ir/TensorData.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::ir {

using OpId = StrongId<struct OpTag>;
using ValueId = StrongId<struct ValueTag>;

using Shape = std::vector<std::int64_t>;

// Product of dims; nullopt when it overflows int64.
std::optional<std::int64_t> elementCount(const Shape& shape);
// "1x3x224x224"; "scalar" for rank 0.
std::string shapeToString(const Shape& shape);

struct OpCost {
    double flops = 0;                // see docs/OP_COSTS.md for the counting rules
    std::uint64_t bytesRead = 0;     // all inputs, weights included
    std::uint64_t bytesWritten = 0;  // all outputs
    std::uint64_t parameters = 0;    // elements of constant inputs
};

struct Value {
    std::string name;
    DType dtype = DType::Undefined;
    Shape shape;
    OpId producer;                   // invalid for graph inputs and constants
    std::vector<OpId> consumers;
    bool isConstant = false;         // initializer, Constant node or folded
    bool isInitializer = false;      // one of the model's own initializers
    TensorData data;                 // bytes of a constant (may be empty for huge/absent data)

    std::int64_t elements() const;   // product of dims (saturates to INT64_MAX)
    std::uint64_t bytes() const;     // elements * dtype size
};

struct Op {
    std::string name;                // unique within the graph
    std::string type;                // ONNX op type, e.g. "Conv"
    std::string domain;              // "" for the default ONNX domain
    std::vector<Attribute> attributes;
    std::vector<ValueId> inputs;     // an invalid id marks an omitted optional input
    std::vector<ValueId> outputs;
    OpClass opClass = OpClass::Other;
    OpCost cost;

    const Attribute* attribute(std::string_view attrName) const;
    std::int64_t attrInt(std::string_view attrName, std::int64_t fallback) const;
    std::vector<std::int64_t> attrInts(std::string_view attrName) const; // empty if absent
};

struct Graph {
    std::string name;
    std::string sourcePath;
    std::int64_t opsetVersion = 0;   // of the default ONNX domain, after version conversion
    std::vector<Op> ops;             // in topological order
    std::vector<Value> values;
    std::vector<ValueId> inputs;     // graph inputs that are not constants
    std::vector<ValueId> outputs;
    std::uint64_t parameterCount = 0;// elements in the model's initializers
    std::string contentHash;         // ir/GraphHash.h: structure, not weight values

    const Op& op(OpId id) const { return ops[id.index]; }
    const Value& value(ValueId id) const { return values[id.index]; }
    std::optional<OpId> findOp(std::string_view opName) const;
    std::optional<ValueId> findValue(std::string_view valueName) const;

    double totalFlops() const;
    // Op types with their counts, sorted by type name.
    std::vector<std::pair<std::string, int>> opTypeCounts() const;

    // Fills name indices and consumer lists; call once after building ops and values.
    void finalize();

  private:
    std::unordered_map<std::string, OpId> m_opByName;
    std::unordered_map<std::string, ValueId> m_valueByName;
};

} // namespace strata::ir
