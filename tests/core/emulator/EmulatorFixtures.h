#pragma once
// A small target whose numbers make hand computation easy, and a builder for hand-written
// programs, shared by the emulator tests.
//
// Target "tiny": 1 GHz (1 cycle = 1 ns = 1000 ps), 2 groups x 1 core, no overheads unless a test
// sets them. DRAM per group, SRAM per core. Resources: `port` (per group, 16 B/cycle), `side`
// (per group, 16 B/cycle). Paths, all 16 B/cycle with latency 100 and 4 in flight:
//   load  DRAM -> SRAM on port;  store SRAM -> DRAM on port;  aux DRAM -> SRAM on side;
//   bcast DRAM -> SRAM, broadcast, 32 B/cycle on port (half of its bytes on each group's port).
// Compute: 1 MAC/cycle for conv, 1 element/cycle for elementwise.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <memory>
#include <string>

namespace strata::test {

target::Target tinyTarget();

// A float32 value named `name` of `shape`, for hand-built graphs.
ir::Value floatValue(const char* name, ir::Shape shape);

// A graph of one Conv (op 0): x (value 0) and constant weights w (value 1) to y (value 2).
ir::Graph convGraph(const char* name, ir::Shape x, ir::Shape w, ir::Shape y,
                    std::vector<ir::Attribute> attributes);

// The tiny target's time for a program of `compute` alone (of op 0 of `graph`) on one core, in
// ns; -1 (and a failed expectation) when emulation fails.
std::int64_t computeDurationNs(compiler::Compute compute, const ir::Graph& graph);
// The same on `target`.
std::int64_t computeDurationNs(compiler::Compute compute, const ir::Graph& graph,
                               const target::Target& target);

// One Conv op (op 0, class conv) and one Relu op (op 1, elementwise) over a float value x
// (value 0, shape [1, 1024]).
const ir::Graph& tinyGraph();

class ProgramBuilder {
  public:
    explicit ProgramBuilder(int cores);

    compiler::InstrId transfer(int core, const std::string& path, std::uint64_t bytes, int tag, int block = 0);
    compiler::InstrId wait(int core, int tag, int block = 0);
    // A Conv computing `macs` multiply-accumulates (2 x macs FLOPs).
    compiler::InstrId conv(int core, double macs, int block = 0);
    // A Relu writing `elements` elements of x.
    compiler::InstrId relu(int core, std::int64_t elements, int block = 0);
    void barrier(); // on every core

    const compiler::Program& program() const { return m_program; }

  private:
    compiler::InstrId append(int core, int block, ir::OpId op, decltype(compiler::Instruction::body) body);
    compiler::Program m_program;
    int m_barriers = 0;
};

} // namespace strata::test
