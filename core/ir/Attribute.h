#pragma once
// Op attributes as plain values. Tensor and graph attributes are not kept (Strata's compute
// graph has no subgraphs); their presence is recorded as a string "<tensor>" / "<graph>".

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace strata::ir {

using AttributeValue = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>,
                                    std::vector<double>, std::vector<std::string>>;

struct Attribute {
    std::string name;
    AttributeValue value;
};

// "3", "0.5", "\"same\"", "[1, 1]"
std::string attributeToString(const AttributeValue& value);

} // namespace strata::ir
