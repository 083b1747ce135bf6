#pragma once
// The compiled program: per-core streams of instructions (docs/ISA.md). A transfer runs
// asynchronously from its issue to the `wait` on its tag; a compute reads and writes the core's
// working memory; a barrier synchronises all cores between dependent blocks. Every instruction
// has a stable id (its index in Program::instructions) that emulated and measured timelines
// both use, and its provenance (block, op, tile).

#include "ir/Graph.h"
#include "tiling/DramLayouts.h"
#include "tiling/Region.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace strata::compiler {

using InstrId = std::uint32_t;

struct Provenance {
    int block = -1;        // schedule block id; -1 for barriers
    ir::OpId op;           // the op computed, or whose operand is moved; invalid for barriers
    std::int64_t tile = -1;
};

// A box of elements in one memory instance: `shape` elements per dimension with `strides` (in
// elements), starting `offset` bytes into the instance.
struct Access {
    std::string memory;    // memory space name ("DRAM", "L2BM", ...)
    int instance = 0;      // group or core index for group/core-scoped spaces, else 0
    std::uint64_t offset = 0;
    ir::Shape shape;
    std::vector<std::int64_t> strides;
};

struct Transfer {
    std::string path;      // the target's transfer path
    Access source;
    Access destination;
    std::uint64_t bytes = 0;
    int tag = 0;
    ir::ValueId value;     // the tensor moved
    tiling::Region region; // the part of it
    // A broadcast (a path with `broadcast`): the further cores whose working memory receives
    // the same bytes at the same offset. They may read them after the next barrier, which the
    // issuing core reaches only once it has waited on the transfer.
    std::vector<int> alsoTo;
    // The layout of the working-memory box it reads or writes (Operand::channelBlock): its
    // value's main-memory layout (DramBuffer::layout) where that box can hold it, else row-major
    // (the access's strides then gather across the two).
    int channelBlock = 0;
};

struct Wait {
    int tag = 0;
};

struct Operand {
    ir::ValueId value;
    tiling::Region region;  // the part of the tensor held in working memory
    std::uint64_t offset = 0; // its byte offset in working memory
    // How the box lays out its elements (docs/ISA.md, Layouts): 0, row-major (NCHW); kChannelsLast,
    // NHWC (also a main-memory layout, DramBuffer::layout); b > 1,
    // channel-blocked nChw<b>c: [N][C/b][H][W][b], the same bytes when C is whole blocks.
    int channelBlock = 0;
};

inline constexpr int kChannelsLast = tiling::kChannelsLast; // NHWC: oneDNN's brgconv's activations
// The layout's name in listings: "nchw", "nhwc", "nChw16c".
std::string layoutName(int channelBlock);

// The op type of a compute that rewrites a working-memory box in place from one layout to
// another (passes/ChooseLayouts.h): one input and one output, the same value, region and offset,
// their channelBlock the layouts from and to. Its provenance op is the op the box is reordered for.
inline constexpr const char* kReorderOp = "Reorder";

// An elementwise op folded into the compute that makes its input (passes/FuseEpilogues.h): it
// runs on the compute's output box in place, while that is still in cache, instead of as an
// instruction of its own. The folded op's intermediate input is never stored anywhere.
struct EpilogueStep {
    ir::OpId op;                   // the folded op (the GUI maps it to this instruction)
    std::string opType;            // "Relu", "Add", ...
    double flops = 0;
    ir::ValueId input;             // its input the chain feeds (the previous step's output)
    std::vector<Operand> others;   // its further operands in working memory (a residual Add's)
};

// One op computing a region of its outputs from operands in working memory.
struct Compute {
    std::string opType;
    double flops = 0;
    std::vector<Operand> inputs;   // present inputs the region reads
    std::vector<Operand> outputs;  // the regions it writes
    // Adds to what its output holds instead of overwriting it: a later input-channel slice of a
    // convolution too big for working memory (docs/SCHEDULES.md); its inputs are that slice.
    bool accumulate = false;
    // Elementwise ops applied in order to the output box after the op itself; `outputs` then
    // holds the last step's output (the region is the same). Empty for a plain compute.
    std::vector<EpilogueStep> epilogue;

    bool isReorder() const { return opType == kReorderOp; }
};

struct Barrier {
    int id = 0;            // the n-th barrier of the program; every core reaches each once
};

enum class InstrKind : std::uint8_t { Transfer, Wait, Compute, Barrier };
const char* instrKindName(InstrKind kind); // "transfer", "wait", "compute", "barrier"

struct Instruction {
    InstrId id = 0;
    int core = 0;
    Provenance from;
    std::variant<Transfer, Wait, Compute, Barrier> body;

    InstrKind kind() const { return static_cast<InstrKind>(body.index()); }
    // Whether it computes `op`: its own op, or one folded into its epilogue.
    bool computes(ir::OpId op) const;
};

// A tensor's home in main memory.
struct DramBuffer {
    ir::ValueId value;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    enum class Role : std::uint8_t { Input, Output, Weight, Intermediate } role = Role::Intermediate;
    int firstBlock = 0;    // schedule position that writes it (inputs and weights: -1, before all)
    int lastBlock = 0;     // schedule position of its last reader (outputs: past the end)
    // How it lays out its elements (Operand::channelBlock): row-major, or channels-last for an
    // intermediate whose writers and readers mostly work so (tiling/DramLayouts.h).
    int layout = 0;
};
const char* dramRoleName(DramBuffer::Role role);

// What one schedule block became.
struct BlockCode {
    int block = 0;         // schedule block id
    ir::Shape tile;        // resolved tile extents of its anchor output
    std::int64_t tiles = 0;
    std::vector<int> cores;
    std::uint64_t sramBytes = 0; // working memory the block uses on a core
};

struct Program {
    std::string modelName;
    std::string modelHash;
    std::string targetName;
    std::string mainMemory;          // e.g. "DRAM"
    std::string workingMemory;       // e.g. "L2BM"
    int cores = 1;
    std::vector<DramBuffer> dram;
    std::uint64_t dramBytes = 0;     // extent of the DRAM plan
    std::vector<BlockCode> blocks;
    std::vector<Instruction> instructions;     // id = index
    std::vector<std::vector<InstrId>> streams; // per core, in issue order

    const DramBuffer* dramOf(ir::ValueId value) const;
    std::size_t count(InstrKind kind) const;
    std::uint64_t transferredBytes() const;
};

} // namespace strata::compiler
