#include "model/AttributeConvert.h"

namespace strata::model {

ir::AttributeValue convertAttribute(const onnx::AttributeProto& a) {
    using A = onnx::AttributeProto;
    switch (a.type()) {
    case A::INT:
        return a.i();
    case A::FLOAT:
        return double(a.f());
    case A::STRING:
        return a.s();
    case A::INTS:
        return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case A::FLOATS:
        return std::vector<double>(a.floats().begin(), a.floats().end());
    case A::STRINGS:
        return std::vector<std::string>(a.strings().begin(), a.strings().end());
    case A::TENSOR: {
        std::string dims;
        for (auto d : a.t().dims())
            dims += (dims.empty() ? "" : "x") + std::to_string(d);
        return "<tensor " + (dims.empty() ? std::string("scalar") : dims) + ">";
    }
    default:
        return std::string("<unsupported attribute>");
    }
}

} // namespace strata::model
