#pragma once
// What the user has selected, once for the whole window: ops, blocks and instructions (an
// instruction is also a timeline event: events carry their instruction's id). Every tab and
// panel that selects (graph, schedule table, Program listing, Timeline, Transfers, Ops,
// Inspector, Compare) sets it from its own picks and follows changed() for everyone else's,
// instead of being wired pair by pair. Re-entrancy is handled here, once: a set that changes
// nothing is ignored, and so is any set made while changed() is being delivered (a view that
// follows echoes its own selection signal; that echo is not a new pick).

#include "compiler/Program.h"
#include "ir/Graph.h"

#include <QObject>
#include <optional>
#include <vector>

namespace strata::gui {

class ScheduleDocument;

class Selection : public QObject {
    Q_OBJECT

  public:
    // Who made a selection: a follower skips its own.
    enum class Origin {
        Graph,
        Table,
        Program,
        Timeline,
        Transfers,
        Ops,
        Inspector,
        Compare,
        Other
    };
    Q_ENUM(Origin)

    struct State {
        std::vector<ir::OpId> ops;                   // in the order picked
        std::vector<int> blocks;                     // ascending: picked, and the blocks of ops
        std::vector<compiler::InstrId> instructions; // picked instructions or events
        bool operator==(const State&) const = default;
    };

    // Blocks of ops are looked up in `document`'s current schedule.
    explicit Selection(const ScheduleDocument* document, QObject* parent = nullptr);

    const State& state() const { return m_state; }
    const std::vector<ir::OpId>& ops() const { return m_state.ops; }
    const std::vector<int>& blocks() const { return m_state.blocks; }
    const std::vector<compiler::InstrId>& instructions() const { return m_state.instructions; }
    // The one op selected, if exactly one is.
    std::optional<ir::OpId> singleOp() const;
    // The one block selected (an op's too), or -1.
    int singleBlock() const;
    Origin origin() const { return m_origin; }

    // `ops` and `blocks`, with the blocks holding `ops` added.
    void selectOps(std::vector<ir::OpId> ops, Origin origin, std::vector<int> blocks = {});
    void selectBlocks(std::vector<int> blocks, Origin origin);
    // Instructions (events) `ids` of `program` (null: of a program not at hand, e.g. a trace
    // file's), with the ops they come from and those ops' blocks.
    void selectInstructions(std::vector<compiler::InstrId> ids, const compiler::Program* program,
                            Origin origin);
    void clear(Origin origin);
    // The one place a selection changes: ignored when it changes nothing or while changed() is
    // being delivered.
    void set(State state, Origin origin);

  signals:
    void changed(strata::gui::Selection::Origin origin);

  private:
    void addBlocksOfOps(State& state) const;

    const ScheduleDocument* m_document;
    State m_state;
    Origin m_origin = Origin::Other;
    bool m_delivering = false;
};

} // namespace strata::gui
