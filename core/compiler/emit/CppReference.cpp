#include "compiler/emit/CppReference.h"

#include "compiler/emit/cpp/RuntimeText.h"
#include "reference/Evaluator.h"

#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <type_traits>
#include <variant>

namespace strata::compiler::cpp {
namespace {

// `text` as a C++ string literal: printable ASCII as itself, the rest as three-digit octal
// escapes (which no following digit can extend), in adjacent literals of about 100 characters.
std::string stringLiteral(std::string_view text) {
    std::string out = "\"";
    std::size_t line = 0;
    for (char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\')
            out += fmt::format("\\{}", ch), line += 2;
        else if (byte >= 0x20 && byte < 0x7f)
            out += ch, ++line;
        else
            out += fmt::format("\\{:03o}", byte), line += 4;
        if (line >= 100) {
            out += "\"\n        \"";
            line = 0;
        }
    }
    return out + "\"";
}

std::string intLiteral(std::int64_t v) {
    if (v == std::numeric_limits<std::int64_t>::min())
        return "std::numeric_limits<std::int64_t>::min()";
    return fmt::format("std::int64_t{{{}}}", v);
}

// A double as a C++ literal that reads back to the same double.
std::string doubleLiteral(double v) {
    if (std::isnan(v))
        return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v))
        return v > 0 ? "std::numeric_limits<double>::infinity()"
                     : "-std::numeric_limits<double>::infinity()";
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

std::string attributeValue(const ir::AttributeValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            std::vector<std::string> items;
            if constexpr (std::is_same_v<T, std::int64_t>) {
                return intLiteral(v);
            } else if constexpr (std::is_same_v<T, double>) {
                return doubleLiteral(v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                return "std::string(" + stringLiteral(v) + ")";
            } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
                for (std::int64_t x : v)
                    items.push_back(intLiteral(x));
                return fmt::format("std::vector<std::int64_t>{{{}}}", fmt::join(items, ", "));
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
                for (double x : v)
                    items.push_back(doubleLiteral(x));
                return fmt::format("std::vector<double>{{{}}}", fmt::join(items, ", "));
            } else {
                for (const std::string& x : v)
                    items.push_back(stringLiteral(x));
                return fmt::format("std::vector<std::string>{{{}}}", fmt::join(items, ", "));
            }
        },
        value);
}

// A kernel family's source with its table (`constexpr KernelInfo k<Family>Kernels[] = {...};`,
// one `{"Type", kernel, check...}` per op type) cut to the entries of `types`.
std::string keepKernels(std::string_view text, const std::set<std::string, std::less<>>& types) {
    const std::size_t table = text.find("constexpr KernelInfo k");
    const std::size_t open = table == std::string_view::npos ? table : text.find('{', table);
    if (open == std::string_view::npos)
        return std::string(text);
    std::string out(text.substr(0, open + 1));
    int depth = 0;
    std::size_t start = 0, at = open + 1;
    for (; at < text.size(); ++at) {
        if (text[at] == '{' && depth++ == 0)
            start = at;
        if (text[at] != '}')
            continue;
        if (depth == 0)
            break; // the table's own closing brace
        if (--depth > 0)
            continue;
        const std::string_view entry = text.substr(start, at + 1 - start);
        const std::size_t quote = entry.find('"'), end = entry.find('"', quote + 1);
        if (end != std::string_view::npos &&
            types.contains(entry.substr(quote + 1, end - quote - 1)))
            out += fmt::format("\n    {},", entry);
    }
    out += '\n';
    out += text.substr(at);
    return out;
}

} // namespace

int ReferenceOps::valueIndex(ir::ValueId id) {
    if (!id.valid())
        return -1;
    auto [it, added] = m_valueIndex.emplace(id, static_cast<int>(m_values.size()));
    if (added) {
        m_values.push_back(id);
        m_inline.push_back(false);
    }
    return it->second;
}

Expected<std::size_t> ReferenceOps::add(const ir::Op& op, const KernelCall& call) {
    const ir::OpId id = m_g.value(op.outputs.front()).producer;
    auto [it, added] = m_opIndex.emplace(id, m_ops.size());
    if (added) {
        m_ops.push_back(id);
        m_families.emplace(reference::kernelFamily(op.type));
        m_types.emplace(op.type);
        for (ir::ValueId v : op.inputs)
            valueIndex(v);
        for (ir::ValueId v : op.outputs)
            valueIndex(v);
    }
    // A constant this tile reads but holds no box of: the program needs its bytes.
    for (const KernelView& in : call.inputs) {
        if (!in.value.valid() || in.present || !m_g.value(in.value).isConstant)
            continue;
        const ir::Value& v = m_g.value(in.value);
        if (v.data.size > kMaxInlineBytes || v.data.size != v.bytes())
            return error(
                fmt::format("C++ emitter: {} '{}' reads constant '{}' ({} bytes) whole, which the "
                            "generated file can carry up to {} bytes of (and only with its data)",
                            op.type, op.name, v.name, v.bytes(), kMaxInlineBytes),
                Location{.node = op.name, .value = v.name});
        m_inline[static_cast<std::size_t>(valueIndex(in.value))] = true;
    }
    return it->second;
}

std::string ReferenceOps::evaluatorSource() const {
    constexpr std::string_view kPrefix = "reference/Kernels", kSuffix = ".cpp";
    std::string s;
    for (const EmbeddedSource& file : referenceSources()) {
        std::string_view family = file.path;
        const bool isFamily = family.starts_with(kPrefix) && family.ends_with(kSuffix) &&
                              family != "reference/KernelsCommon.cpp";
        family = isFamily ? family.substr(kPrefix.size(),
                                          family.size() - kPrefix.size() - kSuffix.size())
                          : std::string_view();
        if (isFamily && !m_families.contains(family)) {
            // A family no op here uses: its table, empty (the evaluator looks in every one).
            std::string name(family);
            name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
            s += fmt::format("// ----- core/{}: no op of this program needs it\n"
                             "namespace strata::reference::kernels {{\n"
                             "std::span<const KernelInfo> {}Kernels() {{ return {{}}; }}\n"
                             "}} // namespace strata::reference::kernels\n\n",
                             file.path, name);
            continue;
        }
        s += fmt::format("// ----- core/{}{}\n{}\n", file.path,
                         isFamily ? " (the kernels this program uses)" : "",
                         isFamily ? keepKernels(file.text, m_types) : std::string(file.text));
    }
    return s;
}

std::string ReferenceOps::source() const {
    std::string s = "// The ops no strata_rt kernel covers, as the reference evaluator reads them: "
                    "a graph of just\n"
                    "// them and the values they touch (with the bytes of the constants their "
                    "tiles do not load).\n";
    std::string data, values, ops;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        const ir::Value& v = m_g.value(m_values[i]);
        std::string args =
            fmt::format("{}, {} /* {} */, {{{}}}", stringLiteral(v.name), static_cast<int>(v.dtype),
                        ir::dtypeName(v.dtype), fmt::join(v.shape, ", "));
        if (m_inline[i]) {
            const auto* bytes = reinterpret_cast<const char*>(v.data.data);
            data += fmt::format("const char kConstant{}[] =\n        {};\n", i,
                                stringLiteral(std::string_view(bytes, v.data.size)));
            args += fmt::format(", kConstant{}, {}", i, v.data.size);
        }
        values += fmt::format("        rt::referenceValue({}), // {}\n", args, i);
    }
    for (ir::OpId id : m_ops) {
        const ir::Op& op = m_g.op(id);
        std::vector<std::string> attributes, inputs, outputs;
        for (const ir::Attribute& a : op.attributes)
            attributes.push_back(
                fmt::format("{{{}, {}}}", stringLiteral(a.name), attributeValue(a.value)));
        for (ir::ValueId v : op.inputs)
            inputs.push_back(std::to_string(v.valid() ? m_valueIndex.at(v) : -1));
        for (ir::ValueId v : op.outputs)
            outputs.push_back(std::to_string(m_valueIndex.at(v)));
        ops +=
            fmt::format("        rt::referenceOp({}, {}, {{{}}}, {{{}}}, {{{}}}),\n",
                        stringLiteral(op.type), stringLiteral(op.name), fmt::join(attributes, ", "),
                        fmt::join(inputs, ", "), fmt::join(outputs, ", "));
    }
    s += data;
    s += "\nconst rt::ReferenceProgram& referenceProgram() {\n"
         "    static const rt::ReferenceProgram program = [] {\n"
         "        strata::ir::Graph g;\n";
    s += fmt::format("        g.opsetVersion = {};\n", m_g.opsetVersion);
    s += "        g.values = {\n" + values + "        };\n";
    s += "        g.ops = {\n" + ops + "        };\n";
    s += "        return rt::ReferenceProgram(std::move(g));\n"
         "    }();\n"
         "    return program;\n"
         "}\n\n";
    return s;
}

} // namespace strata::compiler::cpp
