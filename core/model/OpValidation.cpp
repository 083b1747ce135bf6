#include "model/OpValidation.h"

#include "base/Excerpt.h"

#include <optional>
#include <string_view>
#include <unordered_map>

namespace strata::model {

namespace {

using Shape = std::vector<std::int64_t>;

enum class Kind { Conv, ConvTranspose, Pool };

struct OpRule {
    Kind kind;
    int weightInput;       // -1: no weight
    bool needsKernelShape; // pooling has no weight to take the kernel from
};

std::optional<OpRule> ruleFor(std::string_view type) {
    if (type == "Conv" || type == "ConvInteger")
        return OpRule{Kind::Conv, 1, false};
    if (type == "QLinearConv")
        return OpRule{Kind::Conv, 3, false};
    if (type == "ConvTranspose")
        return OpRule{Kind::ConvTranspose, 1, false};
    if (type == "MaxPool" || type == "AveragePool" || type == "LpPool")
        return OpRule{Kind::Pool, -1, true};
    return std::nullopt;
}

// Static shapes known by name: a dim that is not a known positive value makes the shape unknown.
class KnownShapes {
  public:
    explicit KnownShapes(const onnx::GraphProto& graph) {
        for (const auto& t : graph.initializer())
            m_shapes.emplace(t.name(), Shape(t.dims().begin(), t.dims().end()));
        for (const auto* infos : {&graph.input(), &graph.value_info(), &graph.output()})
            for (const auto& info : *infos)
                addValueInfo(info);
    }

    const Shape* find(const std::string& name) const {
        auto it = m_shapes.find(name);
        return it == m_shapes.end() ? nullptr : &it->second;
    }

  private:
    void addValueInfo(const onnx::ValueInfoProto& info) {
        if (!info.has_type() || !info.type().has_tensor_type())
            return;
        const auto& tensor = info.type().tensor_type();
        if (!tensor.has_shape())
            return;
        Shape shape;
        for (const auto& d : tensor.shape().dim()) {
            if (!d.has_dim_value() || d.dim_value() < 0)
                return;
            shape.push_back(d.dim_value());
        }
        m_shapes.emplace(info.name(), std::move(shape));
    }

    std::unordered_map<std::string, Shape> m_shapes;
};

class NodeCheck {
  public:
    NodeCheck(const onnx::NodeProto& node, const OpRule& rule, const KnownShapes& shapes,
              const std::string& file, std::vector<Diagnostic>& out)
        : m_node(node), m_rule(rule), m_where{.file = file, .node = excerpt(node.name())},
          m_out(out) {
        if (node.input_size() > 0)
            m_input = shapes.find(node.input(0));
        if (rule.weightInput >= 0 && node.input_size() > rule.weightInput)
            m_weight = shapes.find(node.input(rule.weightInput));
    }

    void run() {
        checkAutoPad();
        for (const char* name : {"strides", "dilations", "kernel_shape"})
            checkInts(name, 1, kMaxWindowAttribute);
        for (const char* name : {"pads", "output_padding"})
            checkInts(name, 0, kMaxWindowAttribute);
        checkGroupRange();
        if (m_rule.needsKernelShape && !find("kernel_shape"))
            fail("has no 'kernel_shape' attribute, which " + m_node.op_type() + " requires");
        checkRanks();
        checkChannels();
    }

  private:
    const onnx::AttributeProto* find(const char* name) const {
        for (const auto& a : m_node.attribute())
            if (a.name() == name)
                return &a;
        return nullptr;
    }

    void fail(const std::string& message) {
        m_out.push_back(error(m_node.op_type() + " " + message, m_where));
    }

    void checkAutoPad() {
        const auto* a = find("auto_pad");
        if (!a)
            return;
        const std::string& v = a->s();
        if (v != "NOTSET" && v != "SAME_UPPER" && v != "SAME_LOWER" && v != "VALID")
            fail("attribute 'auto_pad' is '" + excerpt(v) +
                 "'; it must be NOTSET, SAME_UPPER, SAME_LOWER or VALID");
    }

    void checkInts(const char* name, std::int64_t minimum, std::int64_t maximum) {
        const auto* a = find(name);
        if (!a)
            return;
        for (std::int64_t v : a->ints())
            if (v < minimum || v > maximum) {
                fail("attribute '" + std::string(name) + "' has value " + std::to_string(v) +
                     "; it must be between " + std::to_string(minimum) + " and " +
                     std::to_string(maximum));
                m_badValues = true;
                return;
            }
    }

    std::int64_t group() const {
        const auto* g = find("group");
        return g ? g->i() : 1;
    }

    void checkGroupRange() {
        if (m_rule.kind == Kind::Pool)
            return;
        const std::int64_t g = group();
        if (g < 1 || g > kMaxWindowAttribute) {
            fail("attribute 'group' has value " + std::to_string(g) +
                 "; it must be between 1 and " + std::to_string(kMaxWindowAttribute));
            m_badValues = true;
        }
    }

    // The number of spatial dims, from the input, the weight or kernel_shape (first known).
    void checkRanks() {
        if (m_input && m_input->size() < 3) {
            fail("input '" + excerpt(m_node.input(0)) + "' has rank " +
                 std::to_string(m_input->size()) +
                 "; it needs rank 3 or more (batch, channels, spatial dims)");
            m_badRanks = true;
            return;
        }
        std::optional<std::size_t> spatial;
        std::string from;
        if (m_input) {
            spatial = m_input->size() - 2;
            from = "the input's rank " + std::to_string(m_input->size());
        }
        if (m_weight) {
            const std::string rank = std::to_string(m_weight->size());
            if (m_weight->size() < 3) {
                fail("weight has rank " + rank + "; it needs rank 3 or more");
                m_badRanks = true;
                return;
            }
            if (spatial && m_weight->size() - 2 != *spatial) {
                fail("weight has rank " + rank + ", which does not match " + from);
                m_badRanks = true;
                return;
            }
            if (!spatial) {
                spatial = m_weight->size() - 2;
                from = "the weight's rank " + rank;
            }
        }
        auto length = [&](const char* name, std::size_t perDim) {
            const auto* a = find(name);
            if (!a || !spatial || std::size_t(a->ints_size()) == perDim * *spatial)
                return;
            fail("attribute '" + std::string(name) + "' has " + std::to_string(a->ints_size()) +
                 " values; " + from + " needs " + std::to_string(perDim * *spatial));
            m_badRanks = true;
        };
        if (!spatial) {
            if (const auto* k = find("kernel_shape")) {
                spatial = std::size_t(k->ints_size());
                from = "its kernel_shape";
            }
        }
        length("kernel_shape", 1);
        length("strides", 1);
        length("dilations", 1);
        length("pads", 2);
        length("output_padding", 1);
        length("output_shape", 1);
        if (m_weight && !m_badRanks)
            if (const auto* k = find("kernel_shape"))
                for (int i = 0; i < k->ints_size(); ++i)
                    if (k->ints(i) != (*m_weight)[std::size_t(i) + 2]) {
                        fail("attribute 'kernel_shape' says " + std::to_string(k->ints(i)) +
                             " at spatial axis " + std::to_string(i) + " but the weight has " +
                             std::to_string((*m_weight)[std::size_t(i) + 2]));
                        return;
                    }
    }

    void checkChannels() {
        if (m_rule.kind == Kind::Pool || m_badValues || m_badRanks)
            return;
        const std::int64_t g = group();
        const std::string gs = std::to_string(g);
        if (m_input) {
            const std::int64_t channels = (*m_input)[1];
            if (channels % g != 0) {
                fail("attribute 'group' is " + gs + ", which does not divide the input's " +
                     std::to_string(channels) + " channels");
                return;
            }
            if (m_weight && m_rule.kind == Kind::Conv && (*m_weight)[1] * g != channels) {
                fail("weight has " + std::to_string((*m_weight)[1]) +
                     " input channels per group; with group " + gs + " the input needs " +
                     std::to_string((*m_weight)[1] * g) + " channels, it has " +
                     std::to_string(channels));
                return;
            }
            if (m_weight && m_rule.kind == Kind::ConvTranspose && (*m_weight)[0] != channels) {
                fail("weight has " + std::to_string((*m_weight)[0]) +
                     " input channels; the input has " + std::to_string(channels));
                return;
            }
        }
        if (m_weight && m_rule.kind == Kind::Conv && (*m_weight)[0] % g != 0)
            fail("attribute 'group' is " + gs + ", which does not divide the weight's " +
                 std::to_string((*m_weight)[0]) + " output channels");
    }

    const onnx::NodeProto& m_node;
    OpRule m_rule;
    Location m_where;
    std::vector<Diagnostic>& m_out;
    const Shape* m_input = nullptr;
    const Shape* m_weight = nullptr;
    bool m_badValues = false;
    bool m_badRanks = false;
};

} // namespace

void checkWindowedOps(const onnx::GraphProto& graph, const std::string& file,
                      std::vector<Diagnostic>& out) {
    const KnownShapes shapes(graph);
    for (const auto& node : graph.node()) {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            continue;
        if (auto rule = ruleFor(node.op_type()))
            NodeCheck(node, *rule, shapes, file, out).run();
    }
}

} // namespace strata::model
