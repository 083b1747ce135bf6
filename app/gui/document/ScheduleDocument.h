#pragma once
// The schedule being edited for the open model: the graph, the target, the strategy that made
// the starting schedule, the current schedule, its undo stack and the analysis cache for
// (graph, target), all held by one immutable Revision (document/Revision.h). A change (a new
// target or strategy, an edit) makes a new revision and undo/redo make an earlier one current
// again (revisionChanged()); its check runs in the background (ScheduleWorker) unless the edit
// already checked it, and snapshotChanged() hands the views each checked revision.
//
// Edits go through core's edit functions only, run at once on the calling thread and are
// checked at once with the cache: an edit the function refuses, or whose result has an error
// the schedule did not have, is refused with the reason and nothing changes. While a
// background job may be using the cache, edits wait in a queue and run when it is done.

#include "document/Revision.h"
#include "jobs/ScheduleWorker.h"
#include "schedule/Edits.h"
#include "views/schedule/ScheduleSnapshot.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

class QUndoStack;

namespace strata::gui {

struct EditOutcome {
    enum class Status { Applied, Unchanged, Queued, Refused };
    Status status = Status::Refused;
    QString reason; // why it was refused

    bool applied() const { return status == Status::Applied; }
    bool refused() const { return status == Status::Refused; }
};

class ScheduleDocument : public QObject {
    Q_OBJECT

  public:
    static constexpr const char* kDefaultTarget = "host";
    static constexpr schedule::Strategy kDefaultStrategy = schedule::Strategy::FuseMax;

    // Starts with the default target and strategy, and no graph.
    explicit ScheduleDocument(QObject* parent = nullptr);
    ~ScheduleDocument() override;

    // Starts over with `graph` (null: none): drops the schedule and the undo history and makes
    // the starting schedule for the current target and strategy in the background.
    void setGraph(std::shared_ptr<const ir::Graph> graph);

    // Loads a preset name or a target file. On failure the target stays, problemsReported()
    // says why and false is returned. With a graph open, a new starting schedule is made in
    // the background; it becomes one undoable command when it arrives.
    bool setTarget(const QString& presetOrPath);
    // With a graph open, makes a new starting schedule with `strategy` (one undoable command).
    void setStrategy(schedule::Strategy strategy);

    std::shared_ptr<const ir::Graph> graph() const { return m_graph; }
    // What the toolbar should show: the target and strategy asked for last (the schedule for
    // them may still be on its way).
    QString targetKey() const;
    std::shared_ptr<const target::Target> target() const;
    schedule::Strategy strategy() const { return m_requestedStrategy; }

    // The current revision (never null; its schedule is null before the first one arrives).
    const RevisionPtr& revision() const { return m_current; }
    // Whether what was made from `shown` is of the current revision: the one rule every tab
    // and controller asks (gui::isCurrent).
    bool isCurrent(const RevisionPtr& shown) const { return gui::isCurrent(shown, m_current); }
    // The current revision's schedule (null before the first one arrives).
    std::shared_ptr<const schedule::Schedule> schedule() const { return m_current->schedule; }
    // The last checked revision, what the views show. Its revision is revision()'s number
    // unless a check is still running.
    const views::schedule::ScheduleSnapshot& snapshot() const { return m_snapshot; }
    // A starting schedule is being made, or a revision checked.
    bool isBusy() const { return m_worker->isRunning(); }
    bool isMaking() const { return m_making; }
    QUndoStack* undoStack() const { return m_undo; }

    // --- Edits: each is one undoable command; see EditOutcome. ---------------------------
    // Merges the blocks (at least two, by id) into the earliest of them, in schedule order.
    EditOutcome fuse(std::vector<int> blocks);
    // Splits the op's block before `at`: `at` and the ops after it form a new block.
    EditOutcome split(ir::OpId at);
    // Moves `op` into block `toBlock`, which must hold one of its producers or consumers.
    EditOutcome moveOp(ir::OpId op, int toBlock);
    // Moves the boundary on the edge producer -> consumer (two blocks) along the chain to `to`:
    // `to` in the consumer's block grows the producer's block by the ops from `consumer` to
    // `to`; `to` in the producer's block shrinks it by the ops from `to` to `producer`. Each
    // step follows the op's only neighbour in the block; one undoable command.
    EditOutcome moveBoundary(ir::OpId producer, ir::OpId consumer, ir::OpId to);
    EditOutcome setMp(int block, int mp);
    EditOutcome setTile(int block, schedule::TileSpec tile);
    EditOutcome setBuffering(int block, int buffering);
    // Replaces the whole schedule (a saved one, e.g. from a project), checked like any edit.
    EditOutcome replaceSchedule(schedule::Schedule schedule, const QString& text);
    // Like replaceSchedule, but the result is where the history starts (a project's saved
    // schedule): Undo does not go back past it, and the undo stack is clean there.
    EditOutcome openSchedule(schedule::Schedule schedule, const QString& text);

    // The block holding `op` in the current schedule, or -1.
    int blockOfOp(ir::OpId op) const;
    // Blocks `op` may move into: those holding one of its producers or consumers, other than
    // its own, in schedule order.
    std::vector<int> neighbourBlocks(ir::OpId op) const;

    // For ScheduleCommand: makes `revision` current again.
    void restore(const RevisionPtr& revision);

  signals:
    // Another revision is current (its check may still be running).
    void revisionChanged(const strata::gui::RevisionPtr& revision);
    // snapshot() changed: a checked revision to show.
    void snapshotChanged();
    void busyChanged(bool busy);
    // The target or strategy the document uses changed (a request, an undo, a failure).
    void targetChanged(const QString& key);
    void strategyChanged(strata::schedule::Strategy strategy);
    // An edit was refused: why, and the diagnostics that say so.
    void editRefused(const QString& reason, const std::vector<strata::Diagnostic>& diagnostics);
    // Failures outside edits: a target file that does not load, a job that failed.
    void problemsReported(const std::vector<strata::Diagnostic>& diagnostics);
    void statusMessage(const QString& text, int timeoutMs);

  private:
    using EditFunction = std::function<schedule::EditResult(const schedule::Schedule&)>;
    struct PendingEdit {
        QString text;
        EditFunction edit;
        bool asBase = false; // see openSchedule()
    };

    std::shared_ptr<const TargetChoice>
    makeChoice(const QString& key, std::shared_ptr<const target::Target> target) const;
    void startMaking();
    void startChecking();
    void onJobFinished(const ScheduleJobResult& result);
    void runQueuedEdits();
    EditOutcome edit(const QString& text, EditFunction function, bool asBase = false);
    EditOutcome runEdit(const QString& text, const EditFunction& function, bool asBase = false);
    EditOutcome refuse(const QString& reason, std::vector<Diagnostic> diagnostics);
    // A new revision numbered after the newest, like `base` but with `schedule`.
    RevisionPtr makeRevision(const Revision& base,
                             std::shared_ptr<const schedule::Schedule> schedule);
    void publish(std::shared_ptr<const schedule::ScheduleCheck> check);
    void setBusy();

    ScheduleWorker* m_worker = nullptr;
    QUndoStack* m_undo = nullptr;
    std::shared_ptr<const ir::Graph> m_graph;
    RevisionPtr m_current;
    // The target and strategy asked for last (a schedule for them may be on its way).
    std::shared_ptr<const TargetChoice> m_requestedTarget;
    schedule::Strategy m_requestedStrategy = kDefaultStrategy;
    std::uint64_t m_lastNumber = 0; // of the newest revision made
    views::schedule::ScheduleSnapshot m_snapshot;
    // The check of the schedule a command is about to make current (an edit checked it).
    std::shared_ptr<const schedule::ScheduleCheck> m_knownCheck;
    std::vector<PendingEdit> m_queued;
    bool m_making = false;
    bool m_wasBusy = false;
};

} // namespace strata::gui
