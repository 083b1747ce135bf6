#include "ir/Attribute.h"

#include <sstream>

namespace strata::ir {

namespace {
template <class T> void writeList(std::ostringstream& out, const std::vector<T>& list) {
    out << '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i) out << ", ";
        if constexpr (std::is_same_v<T, std::string>)
            out << '"' << list[i] << '"';
        else
            out << list[i];
    }
    out << ']';
}
} // namespace

std::string attributeToString(const AttributeValue& value) {
    std::ostringstream out;
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>)
                out << '"' << v << '"';
            else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double>)
                out << v;
            else
                writeList(out, v);
        },
        value);
    return out.str();
}

} // namespace strata::ir
