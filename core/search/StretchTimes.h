#pragma once
// The emulated time of a schedule summed from its stretches: the blocks between two barriers
// that insert-transfers puts between dependent blocks. At such a barrier every core has waited
// all its transfers, so the emulator restarts its clock there (emulator/Emulator.h) and a
// stretch takes the same picoseconds wherever it sits. A candidate one edit away from a
// schedule seen before shares most of its stretches with it: only the stretches holding a block
// the edit changed are emulated, each on its own as a small program of its chunks, and the
// others are looked up. The sum equals the whole program's emulated total exactly.
//
// On a target whose loads may find an earlier block's stores in a core's cache
// (target::TransferPath::cachedReads, emulator/CachedReads.h), a stretch's timing also depends
// on the stretches before it whose stores may still be cached: back until every core has moved
// more bytes than its working memory holds. Those are part of its key and emulated before it
// (only the stretch itself is timed, from the release of the barrier before it). Where stores
// into lines a core holds are priced (target::TransferPath::cachedWrites, told apart by
// address), the DRAM offsets of the tensors its chunks move are part of its key too.

#include "compiler/BlockChunk.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::search {

class StretchTimes {
  public:
    StretchTimes(const ir::Graph& graph, const target::Target& target);

    struct Totals {
        std::int64_t ps = 0;         // emulated
        std::uint64_t dramBytes = 0; // moved to or from main memory
    };
    // The totals of the program insert-transfers splices from `chunks` (per block, in schedule
    // order) with a barrier before each block flagged in `barrierBefore`; nullopt when a stretch
    // fails to emulate or its closing barrier finds transfers still in flight (then emulate the
    // whole program instead).
    std::optional<Totals>
    totals(const std::vector<std::shared_ptr<const compiler::BlockChunk>>& chunks,
           const std::vector<std::uint8_t>& barrierBefore,
           const std::vector<std::uint64_t>& dramOffsets);

    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }
    std::size_t kept() const { return m_stretches.size(); }

  private:
    // A stretch's totals and the chunks it was timed from, watched rather than held (the
    // compile cache holds the chunks of the schedules it sees; holding them here too would keep
    // every rejected candidate's): while none has expired, their addresses (the key) name them.
    struct Entry {
        Totals totals;
        std::vector<std::weak_ptr<const compiler::BlockChunk>> chunks;
        bool live() const;
    };
    std::optional<Totals>
    emulateStretch(const std::vector<std::shared_ptr<const compiler::BlockChunk>>& chunks,
                   const std::vector<std::uint8_t>& barrierBefore,
                   const std::vector<std::uint64_t>& dramOffsets, std::size_t from,
                   std::size_t first, std::size_t end) const;
    // Bytes each core's stream moves in `chunk` (the reuse distance CachedReads.h counts).
    const std::vector<std::uint64_t>&
    movedPerCore(const std::shared_ptr<const compiler::BlockChunk>& chunk);
    struct Moved {
        std::weak_ptr<const compiler::BlockChunk> chunk;
        std::vector<std::uint64_t> bytes;
    };

    const ir::Graph& m_graph;
    const target::Target& m_target;
    std::unordered_map<std::string, Entry> m_stretches;
    std::unordered_map<const compiler::BlockChunk*, Moved> m_moved;
    std::uint64_t m_cacheWindow = 0; // with cached reads: the working memory's bytes, else 0
    // Stores into held lines are told apart by address (emulator/CachedReads.h): a stretch's
    // time then depends on where the DRAM plan puts its tensors, which joins its key.
    bool m_byAddress = false;
    std::uint64_t m_calls = 0;
    std::uint64_t m_hits = 0, m_misses = 0;
};

} // namespace strata::search
