#pragma once
// Internal to the C++ emitter: the ops a generated program runs on the reference evaluator (a
// compute lowered to Kernel::Reference, as the host runtime runs it). The file then carries the
// evaluator's source (RuntimeText.h's referenceSources()) and a small graph of just those ops and
// the values they touch, built once at start-up; each such compute calls strata_rt::reference
// on its boxes.

#include "base/Expected.h"
#include "compiler/emit/KernelCall.h"

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::compiler::cpp {

class ReferenceOps {
  public:
    explicit ReferenceOps(const ir::Graph& graph) : m_g(graph) {}

    // The index of `op` in the generated graph, adding it and its values on first use. A
    // constant input `call` holds no box of is written into the file whole; one larger than
    // kMaxInlineBytes is an error naming it.
    Expected<std::size_t> add(const ir::Op& op, const KernelCall& call);

    bool empty() const { return m_ops.empty(); }

    // The reference evaluator's source with its bridge to strata_rt (after strata_rt in the
    // file): the kernel families of the ops added, their tables cut to those ops (a kernel
    // template no entry names is never instantiated: the elementwise family builds in 7 s
    // instead of 51 with g++ -O2), an empty table for each other family.
    std::string evaluatorSource() const;

    // The C++ (inside namespace model) of `referenceProgram()`, which builds the graph once.
    std::string source() const;

    static constexpr std::size_t kMaxInlineBytes = std::size_t{1} << 20;

  private:
    int valueIndex(ir::ValueId id);

    const ir::Graph& m_g;
    std::vector<ir::OpId> m_ops;
    std::set<std::string, std::less<>> m_families; // reference/Kernels<family>.cpp the ops need
    std::set<std::string, std::less<>> m_types;    // their op types: the kernel-table entries kept
    std::unordered_map<ir::OpId, std::size_t> m_opIndex;
    std::vector<ir::ValueId> m_values;
    std::unordered_map<ir::ValueId, int> m_valueIndex;
    std::vector<bool> m_inline; // per generated value: a constant written into the file
};

} // namespace strata::compiler::cpp
