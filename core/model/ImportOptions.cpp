#include "model/ImportOptions.h"

#include <charconv>

namespace strata::model {

Expected<std::pair<std::string, ir::Shape>> parseInputShape(const std::string& text) {
    const auto eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0)
        return error("input shape '" + text + "' is not of the form name=1x3x224x224");
    std::string name = text.substr(0, eq);
    std::string dims = text.substr(eq + 1);
    ir::Shape shape;
    std::size_t pos = 0;
    while (pos <= dims.size()) {
        std::size_t end = dims.find_first_of("x,", pos);
        if (end == std::string::npos) end = dims.size();
        std::int64_t d = 0;
        const char* first = dims.data() + pos;
        const char* last = dims.data() + end;
        auto [ptr, ec] = std::from_chars(first, last, d);
        if (first == last || ec != std::errc() || ptr != last || d <= 0 || d > (1LL << 31))
            return error("input shape '" + text + "': dim '" + std::string(first, last) +
                         "' is not a positive integer up to 2^31");
        shape.push_back(d);
        pos = end + 1;
    }
    return std::pair{std::move(name), std::move(shape)};
}

} // namespace strata::model
