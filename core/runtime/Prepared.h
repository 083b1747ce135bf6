#pragma once
// A program decoded once for running: every instruction resolved to raw pointers into the
// run's memories (transfers as strided copies with merged dims, computes as kernel calls over
// views), after checking that everything it touches lies inside its buffer. Nothing is looked
// up or allocated while the streams run.

#include "base/Diagnostic.h"
#include "compiler/Program.h"
#include "compiler/emit/KernelCall.h"
#include "compiler/emit/cpp/strata_rt.h"
#include "emulator/ProgramCheck.h"
#include "reference/Tensor.h"
#include "runtime/Memory.h"
#include "runtime/StridedCopy.h"
#include "target/Target.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace strata::runtime {

namespace rt = strata_rt;

struct ResizePlan; // ResizeKernel.h

// One strided copy: `rank` dims (merged where both sides are contiguous across them).
struct Copy {
    unsigned char* dst = nullptr;
    const unsigned char* src = nullptr;
    int rank = 0;
    rt::i64 shape[rt::kMaxRank] = {};
    rt::i64 dstStrides[rt::kMaxRank] = {};
    rt::i64 srcStrides[rt::kMaxRank] = {};
    std::size_t elementBytes = 1;

    void run() const { copyBox(dst, dstStrides, src, srcStrides, shape, rank, elementBytes); }
};

// A compute: its lowering and one view per operand (data null when absent), pointing into the
// issuing core's scratch.
struct PreparedCompute {
    compiler::KernelCall call;
    std::vector<rt::View<unsigned char>> inputs;  // per call.inputs; rank 0 and null for omitted ones
    rt::View<unsigned char> output;
    // Split and Reference: a view per op output (null where the compute does not write it).
    std::vector<rt::View<unsigned char>> outputs;
    // Reference only (ReferenceFallback.h): the op, and per op input the whole constant where the
    // tile holds no box of it.
    const ir::Graph* graph = nullptr;
    const ir::Op* op = nullptr;
    std::vector<std::shared_ptr<const reference::Tensor>> constants;
    std::shared_ptr<const ResizePlan> resize; // Resize only (ResizeKernel.h)
    // Conv2d: the weight value's id when it is a constant (its packed tiles are kept), else -1.
    std::int64_t constantWeights = -1;
    // A fused epilogue (call.epilogue): per step a Map or Zip over views in place on `output`.
    std::vector<PreparedCompute> epilogue;
};

struct PreparedInstruction {
    compiler::InstrKind kind = compiler::InstrKind::Wait;
    std::vector<Copy> copies;             // transfer: the copy, then one per broadcast core
    std::uint32_t compute = 0;            // compute: index into PreparedProgram::computes
};

struct PreparedProgram {
    emulator::CheckedProgram checked;              // what the trace's events describe
    std::vector<PreparedInstruction> instructions; // per instruction id
    std::vector<PreparedCompute> computes;
    std::vector<std::vector<std::uint32_t>> streams;
};

// The main memory the program needs: its DRAM plan, or without one (a microbenchmark) what
// its main-memory accesses touch.
std::uint64_t mainMemoryBytes(const compiler::Program& program, const ir::Graph& graph);

// Decodes `program` against `memories` (already sized). Appends a diagnostic per problem (up
// to a readable number); the result is usable only when none was added. `checked`: the
// program's check when the caller has done it (not repeated), else null.
PreparedProgram prepare(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                        const Memories& memories, std::vector<Diagnostic>& diagnostics,
                        const emulator::CheckedProgram* checked = nullptr);

} // namespace strata::runtime
