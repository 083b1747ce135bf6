#include "tiling/EinsumEquation.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace strata::tiling {

namespace {

bool isLabel(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

std::vector<std::string> operandTerms(const std::string& lhs) {
    std::vector<std::string> terms(1);
    for (char c : lhs) {
        if (c == ',')
            terms.emplace_back();
        else
            terms.back() += c;
    }
    return terms;
}

} // namespace

bool EinsumLabels::inOutput(int label) const {
    return std::find(output.begin(), output.end(), label) != output.end();
}

std::optional<EinsumLabels> parseEinsum(std::string equation, const std::vector<ir::Shape>& shapes,
                                        std::string& why) {
    std::erase(equation, ' ');
    const auto arrow = equation.find("->");
    const std::vector<std::string> terms = operandTerms(equation.substr(0, arrow));
    if (terms.size() != shapes.size()) {
        why = "equation has " + std::to_string(terms.size()) + " operand(s), op has " +
              std::to_string(shapes.size());
        return std::nullopt;
    }
    EinsumLabels e;
    for (std::size_t k = 0; k < terms.size(); ++k) {
        const auto dots = terms[k].find("...");
        if (dots != std::string::npos && terms[k].find("...", dots + 3) != std::string::npos) {
            why = "operand " + std::to_string(k) + " has more than one '...'";
            return std::nullopt;
        }
        const std::size_t letters = terms[k].size() - (dots == std::string::npos ? 0 : 3);
        if (shapes[k].size() < letters ||
            (dots == std::string::npos && shapes[k].size() != letters)) {
            why = "operand " + std::to_string(k) + " has " + std::to_string(shapes[k].size()) +
                  " dims, its term '" + terms[k] + "' names " + std::to_string(letters);
            return std::nullopt;
        }
        if (dots != std::string::npos)
            e.ellipsisRank = std::max(e.ellipsisRank, shapes[k].size() - letters);
    }
    e.sizes.assign(e.ellipsisRank, 1);
    std::array<int, 128> letterId;
    letterId.fill(-1);
    std::array<int, 128> uses{};
    for (std::size_t k = 0; k < terms.size(); ++k) {
        const std::string& t = terms[k];
        const ir::Shape& shape = shapes[k];
        std::vector<int> labels;
        for (std::size_t i = 0; i < t.size();) {
            if (t.compare(i, 3, "...") == 0) {
                const std::size_t n = shape.size() - (t.size() - 3);
                for (std::size_t j = 0; j < n; ++j)
                    labels.push_back(int(e.ellipsisRank - n + j));
                i += 3;
                continue;
            }
            const char c = t[i++];
            if (!isLabel(c)) {
                why = "unexpected '" + std::string(1, c) + "' in the equation";
                return std::nullopt;
            }
            const auto at = static_cast<std::size_t>(c);
            ++uses[at];
            if (letterId[at] < 0) {
                letterId[at] = int(e.sizes.size());
                e.sizes.push_back(-1);
            }
            labels.push_back(letterId[at]);
        }
        for (std::size_t d = 0; d < labels.size(); ++d) {
            std::int64_t& size = e.sizes[std::size_t(labels[d])];
            const std::int64_t dim = shape[d];
            if (size == -1 || size == 1)
                size = std::max<std::int64_t>(size, dim);
            else if (dim != 1 && dim != size) {
                why = "label sizes disagree (" + std::to_string(dim) + " against " +
                      std::to_string(size) + ")";
                return std::nullopt;
            }
        }
        e.inputs.push_back(std::move(labels));
    }
    if (arrow != std::string::npos) {
        const std::string rhs = equation.substr(arrow + 2);
        for (std::size_t i = 0; i < rhs.size();) {
            if (rhs.compare(i, 3, "...") == 0) {
                if (e.ellipsisRank > 0 && e.inOutput(0)) {
                    why = "'...' appears twice in the output";
                    return std::nullopt;
                }
                for (std::size_t j = 0; j < e.ellipsisRank; ++j)
                    e.output.push_back(int(j));
                i += 3;
                continue;
            }
            const char c = rhs[i++];
            if (!isLabel(c) || letterId[static_cast<std::size_t>(c)] < 0) {
                why = "output label '" + std::string(1, c) + "' is not an input label";
                return std::nullopt;
            }
            const int label = letterId[static_cast<std::size_t>(c)];
            if (e.inOutput(label)) {
                why = "output label '" + std::string(1, c) + "' appears twice";
                return std::nullopt;
            }
            e.output.push_back(label);
        }
    } else {
        for (std::size_t j = 0; j < e.ellipsisRank; ++j)
            e.output.push_back(int(j));
        for (std::size_t c = 0; c < uses.size(); ++c)
            if (uses[c] == 1)
                e.output.push_back(letterId[c]);
    }
    return e;
}

} // namespace strata::tiling
