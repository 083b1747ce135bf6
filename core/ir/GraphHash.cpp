#include "ir/GraphHash.h"

#include <xxhash.h>

#include <cstdio>
#include <memory>
#include <type_traits>

namespace strata::ir {
namespace {

// Feeds length-prefixed fields, so that ("ab","c") and ("a","bc") hash differently.
class Hasher {
  public:
    Hasher() : m_state(XXH3_createState(), &XXH3_freeState) { XXH3_128bits_reset(m_state.get()); }

    void add(std::string_view text) {
        addInt(static_cast<std::int64_t>(text.size()));
        XXH3_128bits_update(m_state.get(), text.data(), text.size());
    }
    void addInt(std::int64_t v) { XXH3_128bits_update(m_state.get(), &v, sizeof v); }
    void addDouble(double v) { XXH3_128bits_update(m_state.get(), &v, sizeof v); }

    void addAttribute(const AttributeValue& value) {
        addInt(static_cast<std::int64_t>(value.index()));
        std::visit([this](const auto& v) { addAlternative(v); }, value);
    }

    std::string hex() const {
        XXH128_hash_t h = XXH3_128bits_digest(m_state.get());
        char out[33];
        std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                      static_cast<unsigned long long>(h.low64));
        return out;
    }

  private:
    void addAlternative(std::int64_t v) { addInt(v); }
    void addAlternative(double v) { addDouble(v); }
    void addAlternative(const std::string& v) { add(v); }
    template <class T> void addAlternative(const std::vector<T>& list) {
        addInt(static_cast<std::int64_t>(list.size()));
        for (const T& item : list) addAlternative(item);
    }

    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> m_state;
};

void addValue(Hasher& h, const Value& v) {
    h.add(v.name);
    h.addInt(static_cast<std::int64_t>(v.dtype));
    h.addInt(static_cast<std::int64_t>(v.shape.size()));
    for (std::int64_t d : v.shape) h.addInt(d);
    h.addInt(v.isConstant ? 1 : 0);
}

void addValueRef(Hasher& h, const Graph& g, ValueId id) {
    if (id.valid()) h.add(g.value(id).name);
    else h.add("<omitted>");
}

} // namespace

std::string contentHash(const Graph& graph) {
    Hasher h;
    h.add("strata-graph-v1");
    h.addInt(static_cast<std::int64_t>(graph.values.size()));
    for (const Value& v : graph.values) addValue(h, v);
    h.addInt(static_cast<std::int64_t>(graph.ops.size()));
    for (const Op& op : graph.ops) {
        h.add(op.name);
        h.add(op.type);
        h.add(op.domain);
        h.addInt(static_cast<std::int64_t>(op.attributes.size()));
        for (const Attribute& a : op.attributes) {
            h.add(a.name);
            h.addAttribute(a.value);
        }
        h.addInt(static_cast<std::int64_t>(op.inputs.size()));
        for (ValueId in : op.inputs) addValueRef(h, graph, in);
        h.addInt(static_cast<std::int64_t>(op.outputs.size()));
        for (ValueId out : op.outputs) addValueRef(h, graph, out);
    }
    for (ValueId in : graph.inputs) addValueRef(h, graph, in);
    h.add("->");
    for (ValueId out : graph.outputs) addValueRef(h, graph, out);
    return h.hex();
}

} // namespace strata::ir
