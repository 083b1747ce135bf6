#pragma once
// The verifier's checks, shared by the whole-program verify (Verify.cpp) and the verify that
// re-checks only the blocks an edit changed (VerifyChunks.cpp): one core's walk over a stretch
// of its stream, the facts a walk gathers for the other cores, and the main-memory race check.

#include "compiler/Program.h"
#include "base/Diagnostic.h"
#include "target/Target.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace strata::compiler::checks {

struct Range {
    std::uint64_t begin = 0, end = 0;
    bool overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

// Memory names are short and mostly the same length ("DRAM", "L2BM"): compared inline rather
// than through a call to memcmp for every access.
inline bool sameName(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

Range rangeOf(const Access& a, std::uint32_t elementBytes);
Range rangeOf(const Operand& o, std::uint32_t elementBytes);

// Bytes per element of every value, by value index.
std::vector<std::uint32_t> elementBytesOf(const ir::Graph& g);

// Bytes a broadcast put into a further core's working memory, readable there from the next
// barrier on.
struct Delivery {
    int core;
    std::uint32_t value;
    Range bytes;
};
using Deliveries = std::vector<std::vector<Delivery>>; // by epoch

// Walks one core's stream (or the stretch [from, to) of it, entered with nothing in flight and
// at epoch 0) and reports what breaks the per-core invariants; an empty `storeEpoch` skips the
// DRAM-order check, which then is the caller's.
class CoreChecker {
  public:
    CoreChecker(const Program& p, const ir::Graph& g, const target::Target& t, int core,
                const std::vector<std::uint32_t>& elementBytes, const std::vector<int>& storeEpoch,
                const Deliveries& deliveries, std::vector<Diagnostic>& out)
        : m_p(p), m_g(g), m_t(t), m_core(core), m_elementBytes(elementBytes), m_storeEpoch(storeEpoch),
          m_deliveries(deliveries), m_out(out), m_capacity(t.workingMemoryBytes()) {}

    void run() { run(0, m_p.streams[static_cast<std::size_t>(m_core)].size()); }

    void run(std::size_t from, std::size_t to) {
        const std::vector<InstrId>& stream = m_p.streams[static_cast<std::size_t>(m_core)];
        for (std::size_t i = from; i < to; ++i) {
            const Instruction& in = m_p.instructions[stream[i]];
            if (const auto* t = std::get_if<Transfer>(&in.body)) transfer(in, *t);
            else if (const auto* w = std::get_if<Wait>(&in.body)) wait(in, *w);
            else if (const auto* c = std::get_if<Compute>(&in.body)) compute(in, *c);
            else barrier(in);
        }
        for (const InFlight& f : m_inFlight) report("transfer never waited", f.id, "unwaited");
    }

  private:
    std::uint32_t elementBytes(ir::ValueId v) const { return m_elementBytes[v.index]; }
    bool isWorking(const Access& a) const { return sameName(a.memory, m_t.workingMemory); }
    bool inFlight(int tag) const {
        return std::any_of(m_inFlight.begin(), m_inFlight.end(), [&](const InFlight& f) { return f.tag == tag; });
    }

    void report(const std::string& what, InstrId id, const std::string& kind);

    // Something writes `r`: refuse if an in-flight transfer touches it, and forget what was there.
    void overwrite(const Range& r, InstrId id) {
        for (const InFlight& f : m_inFlight)
            if (f.usesWorking && f.working.overlaps(r))
                report("overwrites working memory that in-flight transfer " + std::to_string(f.id) + " uses", id, "race");
        std::erase_if(m_ready, [&](const auto& e) { return e.second.overlaps(r); });
    }

    void checkBounds(const Access& a, std::uint32_t bytes, InstrId id) {
        if (isWorking(a) && rangeOf(a, bytes).end > m_capacity) report("access beyond the working memory", id, "overflow");
    }

    void transfer(const Instruction& in, const Transfer& t);
    void wait(const Instruction& in, const Wait& w);

    bool covered(ir::ValueId v, const Range& r) const {
        return std::any_of(m_ready.begin(), m_ready.end(), [&](const auto& e) {
            return e.first == v.index && e.second.begin <= r.begin && r.end <= e.second.end;
        });
    }

    void compute(const Instruction& in, const Compute& c);
    void epilogue(const Instruction& in, const Compute& c);
    void barrier(const Instruction& in);

    const Program& m_p;
    const ir::Graph& m_g;
    const target::Target& m_t;
    int m_core;
    const std::vector<std::uint32_t>& m_elementBytes; // by value index
    const std::vector<int>& m_storeEpoch; // by value index; -1: never stored
    const Deliveries& m_deliveries;
    std::vector<Diagnostic>& m_out;
    std::uint64_t m_capacity;
    // A transfer in flight, with the working-memory bytes it uses (source or destination) and
    // those it leaves ready once waited (its destination), worked out once at its issue.
    struct InFlight {
        int tag = 0;
        InstrId id = 0;
        std::uint32_t value = 0;
        bool usesWorking = false, lands = false;
        Range working, landed;
    };
    // In issue order: a handful, so a vector beats a map.
    std::vector<InFlight> m_inFlight;
    std::vector<std::pair<std::uint32_t, Range>> m_ready; // value index, bytes it holds
    std::set<std::string> m_reported;
    int m_epoch = 0;
};

// One main-memory access by a transfer. The race check walks many of them per access, so what
// it compares is held here, not read through the transfer.
struct MainAccess {
    static constexpr std::size_t kInlineRank = 4;
    Range bytes;                 // the span from first to last byte
    const Transfer* transfer;
    int core;
    bool write;
    InstrId id;
    std::uint32_t value;         // the transfer's
    std::uint32_t rank;          // of its region
    std::array<tiling::Interval, kInlineRank> box; // the region, when rank <= kInlineRank

    MainAccess(Range bytes, const Transfer* transfer, int core, bool write, InstrId id)
        : bytes(bytes), transfer(transfer), core(core), write(write), id(id), value(transfer->value.index),
          rank(static_cast<std::uint32_t>(transfer->region.size())), box{} {
        if (rank <= kInlineRank) std::copy(transfer->region.begin(), transfer->region.end(), box.begin());
    }

    const tiling::Interval* region() const { return rank <= kInlineRank ? box.data() : transfer->region.data(); }

    // Strided boxes of one tensor interleave in memory, so for those compare the regions;
    // distinct tensors whose spans meet share bytes (the plan reused space).
    bool conflicts(const MainAccess& o) const {
        if (!bytes.overlaps(o.bytes)) return false;
        if (value != o.value) return true;
        const tiling::Interval* mine = region();
        const tiling::Interval* theirs = o.region();
        for (std::size_t d = 0; d < rank && d < o.rank; ++d) {
            const auto& a = mine[d];
            const auto& b = theirs[d];
            if (!(a.begin < b.end && b.begin < a.end)) return false;
        }
        return true;
    }
};

// Instruction `id`'s main-memory access, when it is a transfer with a main-memory side.
bool mainAccessOf(const Program& p, const target::Target& t, const std::vector<std::uint32_t>& elementBytes, InstrId id,
                  std::vector<MainAccess>& out);

// What one core's stream (or a stretch of it) tells the checks of every core, gathered in one
// walk over it: the epoch of its last store of each tensor, the bytes its broadcasts deliver,
// and its main-memory accesses by epoch; and the epoch of its first load of each tensor.
struct StreamFacts {
    std::vector<int> storeEpoch;                      // by value index; -1: never stored
    std::vector<int> firstLoadEpoch;                  // by value index; -1: never loaded (filled on request)
    Deliveries deliveries;                            // by epoch
    std::vector<std::vector<MainAccess>> mainAccesses; // by epoch
};

StreamFacts streamFacts(const Program& p, const ir::Graph& g, const target::Target& t,
                        const std::vector<std::uint32_t>& elementBytes, std::size_t core, std::size_t from,
                        std::size_t to, bool loads = false);

// Between two barriers, cores run in any order relative to each other: a main-memory write must
// not overlap another core's read or write of the same bytes (the DRAM plan reuses space, so
// this is about bytes, not tensors). Of one epoch's accesses, the first (write, access) pair that
// races, in the order given; nulls when none does. `scratch` is reused between calls.
struct RaceScratch {
    std::vector<const MainAccess*> writes;
    std::vector<std::uint64_t> maxEnd;
};
std::pair<const MainAccess*, const MainAccess*> findRace(const std::vector<const MainAccess*>& accesses,
                                                         RaceScratch& scratch);

// The error for a race findRace found.
Diagnostic raceError(const MainAccess& write, const MainAccess& access, const Program& p, const ir::Graph& g,
                     const target::Target& t);

} // namespace strata::compiler::checks
