#include "document/ScheduleDocument.h"

#include "document/ScheduleCommand.h"
#include "schedule/Edits.h"
#include "target/CalibratedHost.h"
#include "target/Presets.h"
#include "target/TargetLoader.h"

#include <QUndoStack>
#include <algorithm>
#include <exception>
#include <optional>
#include <set>

namespace strata::gui {

namespace {

constexpr int kUndoLimit = 200;

// What a ScheduleCommand calls to hand its state back.
ScheduleCommand::Restore restorer(ScheduleDocument* document) {
    return [document](const RevisionPtr& revision) { document->restore(revision); };
}

QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString blockText(int id) {
    return fromStd(schedule::blockName(id));
}

// The errors of `check` that `before` did not have: what an edit would break.
std::vector<Diagnostic> newErrors(const schedule::ScheduleCheck& check,
                                  const schedule::ScheduleCheck* before) {
    std::set<std::string> had;
    if (before)
        for (const Diagnostic& d : before->diagnostics)
            if (d.severity == Severity::Error)
                had.insert(d.toString());
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : check.diagnostics)
        if (d.severity == Severity::Error && !had.count(d.toString()))
            out.push_back(d);
    return out;
}

} // namespace

ScheduleDocument::ScheduleDocument(QObject* parent) : QObject(parent) {
    m_worker = new ScheduleWorker(this);
    connect(m_worker, &ScheduleWorker::finished, this, &ScheduleDocument::onJobFinished);
    connect(m_worker, &ScheduleWorker::idle, this, &ScheduleDocument::runQueuedEdits);
    m_undo = new QUndoStack(this);
    m_undo->setUndoLimit(kUndoLimit);

    // The default target (`host`: this computer's calibrated target when `strata-cli calibrate`
    // or Calibrate Host wrote one, as in strata-cli), else its preset, else the first preset that
    // loads (a broken calibrated file or host probe must not leave the app without a target).
    std::vector<std::string> candidates{kDefaultTarget, std::string(target::kUncalibratedHost)};
    for (const std::string& name : target::presetNames())
        candidates.push_back(name);
    for (const std::string& name : candidates) {
        auto resolved = target::resolveTarget(name, target::userResolveOptions());
        if (resolved) {
            m_requestedTarget = makeChoice(
                fromStd(name), std::make_shared<const target::Target>(std::move(*resolved)));
            break;
        }
    }
    Revision first;
    first.target = m_requestedTarget;
    first.strategy = m_requestedStrategy;
    m_current = makeRevision(first, nullptr);
}

ScheduleDocument::~ScheduleDocument() {
    // The worker outlives this object's members (it is a child): no late results into them.
    disconnect(m_worker, nullptr, this, nullptr);
}

QString ScheduleDocument::targetKey() const {
    return m_requestedTarget ? m_requestedTarget->key : QString();
}

std::shared_ptr<const target::Target> ScheduleDocument::target() const {
    return m_requestedTarget ? m_requestedTarget->target : nullptr;
}

RevisionPtr ScheduleDocument::makeRevision(const Revision& base,
                                           std::shared_ptr<const schedule::Schedule> schedule) {
    auto made = std::make_shared<Revision>(base);
    made->number = ++m_lastNumber;
    made->schedule = std::move(schedule);
    return made;
}

std::shared_ptr<const TargetChoice>
ScheduleDocument::makeChoice(const QString& key,
                             std::shared_ptr<const target::Target> target) const {
    auto choice = std::make_shared<TargetChoice>();
    choice->key = key;
    choice->target = std::move(target);
    if (m_graph && choice->target)
        choice->cache = std::make_shared<schedule::AnalysisCache>(*m_graph, *choice->target);
    return choice;
}

void ScheduleDocument::setGraph(std::shared_ptr<const ir::Graph> graph) {
    m_worker->cancel();
    m_queued.clear();
    m_knownCheck.reset();
    m_making = false;
    m_undo->clear();
    m_graph = std::move(graph);
    // A cache belongs to one graph: every revision from now on uses a fresh one.
    if (m_requestedTarget)
        m_requestedTarget = makeChoice(m_requestedTarget->key, m_requestedTarget->target);
    Revision empty;
    empty.graph = m_graph;
    empty.target = m_requestedTarget;
    empty.strategy = m_requestedStrategy;
    m_current = makeRevision(empty, nullptr);
    m_snapshot = {};
    emit revisionChanged(m_current);
    emit snapshotChanged();
    if (m_graph)
        startMaking();
    setBusy();
}

bool ScheduleDocument::setTarget(const QString& presetOrPath) {
    std::vector<Diagnostic> warnings;
    auto resolved =
        target::resolveTarget(presetOrPath.toStdString(), target::userResolveOptions(), &warnings);
    if (!resolved) {
        emit problemsReported(resolved.diagnostics());
        emit statusMessage(tr("Could not load target %1: %2")
                               .arg(presetOrPath, fromStd(resolved.diagnostics().front().message)),
                           15000);
        emit targetChanged(targetKey()); // the selector goes back to the target in use
        return false;
    }
    if (!warnings.empty())
        emit problemsReported(warnings);
    // Which figures "host" means is not obvious from the selector: say it, as strata-cli does.
    if (presetOrPath == QLatin1String(kDefaultTarget))
        emit statusMessage(
            resolved->calibrated
                ? tr("Target host: calibrated figures from %1").arg(fromStd(resolved->source))
                : tr("Target host: the uncalibrated preset (Calibrate Host measures this "
                     "computer)"),
            8000);
    m_requestedTarget =
        makeChoice(presetOrPath, std::make_shared<const target::Target>(std::move(*resolved)));
    emit targetChanged(presetOrPath);
    if (m_graph)
        startMaking();
    return true;
}

void ScheduleDocument::setStrategy(schedule::Strategy strategy) {
    if (strategy != m_requestedStrategy) {
        m_requestedStrategy = strategy;
        emit strategyChanged(strategy);
    }
    if (m_graph)
        startMaking();
}

void ScheduleDocument::startMaking() {
    if (!m_graph || !m_requestedTarget)
        return;
    for (const PendingEdit& pending : m_queued)
        emit editRefused(
            tr("%1 was dropped: a new starting schedule is being made").arg(pending.text), {});
    m_queued.clear();
    ScheduleJob job;
    job.kind = ScheduleJob::Kind::Make;
    job.graph = m_graph;
    job.target = m_requestedTarget->target;
    job.cache = m_requestedTarget->cache;
    job.strategy = m_requestedStrategy;
    m_making = true;
    m_worker->start(std::move(job));
    emit statusMessage(
        tr("Making the %1 schedule for %2\u2026")
            .arg(fromStd(schedule::strategyName(m_requestedStrategy)), m_requestedTarget->key),
        0);
    setBusy();
}

void ScheduleDocument::startChecking() {
    ScheduleJob job;
    job.kind = ScheduleJob::Kind::Check;
    job.graph = m_graph;
    job.target = m_current->target->target;
    job.cache = m_current->target->cache;
    job.schedule = m_current->schedule;
    m_worker->start(std::move(job));
    setBusy();
}

void ScheduleDocument::onJobFinished(const ScheduleJobResult& result) {
    if (result.job.graph != m_graph)
        return; // for a model no longer open
    if (result.job.kind == ScheduleJob::Kind::Check) {
        if (result.ok() && result.schedule == m_current->schedule)
            publish(result.check);
        else if (!result.ok())
            emit problemsReported(result.failure);
        setBusy();
        return;
    }

    m_making = false;
    if (!result.ok() || result.job.target != m_requestedTarget->target) {
        if (!result.ok()) {
            emit problemsReported(result.failure);
            emit statusMessage(tr("Could not make the schedule: %1")
                                   .arg(result.failure.empty()
                                            ? tr("unknown error")
                                            : fromStd(result.failure.front().message)),
                               15000);
        }
        // Back to what is shown; its check, if this job superseded it, runs again.
        m_requestedTarget = m_current->target;
        m_requestedStrategy = m_current->strategy;
        emit targetChanged(targetKey());
        emit strategyChanged(m_requestedStrategy);
        if (m_current->schedule && m_snapshot.revision != m_current->number)
            startChecking();
        setBusy();
        return;
    }
    Revision made = *m_current;
    made.target = m_requestedTarget;
    made.strategy = result.job.strategy;
    const RevisionPtr after = makeRevision(made, result.schedule);
    const QString what =
        tr("%1 schedule for %2 made in %3 ms: %4 blocks")
            .arg(fromStd(schedule::strategyName(after->strategy)), after->target->key)
            .arg(result.elapsedMs)
            .arg(result.schedule->blocks.size());
    m_knownCheck = result.check;
    if (!m_current->schedule) {
        restore(after); // the model's first schedule: nothing to undo
    } else {
        QStringList changes;
        if (after->target != m_current->target)
            changes << tr("Target %1").arg(after->target->key);
        if (after->strategy != m_current->strategy || changes.isEmpty())
            changes << tr("Strategy %1").arg(fromStd(schedule::strategyName(after->strategy)));
        m_undo->push(new ScheduleCommand(restorer(this), changes.join(QStringLiteral(", ")),
                                         m_current, after));
    }
    emit statusMessage(what, 10000);
    setBusy();
}

void ScheduleDocument::restore(const RevisionPtr& revision) {
    const bool targetDiffers = revision->target != m_current->target;
    const bool strategyDiffers = revision->strategy != m_current->strategy;
    if (m_making) {
        // An undo or redo while a starting schedule is being made: that one is dropped.
        m_making = false;
        emit statusMessage(tr("The new starting schedule was cancelled"), 5000);
    }
    const bool requestDiffers =
        m_requestedTarget != revision->target || m_requestedStrategy != revision->strategy;
    m_current = revision;
    m_requestedTarget = revision->target;
    m_requestedStrategy = revision->strategy;
    emit revisionChanged(m_current);
    if (targetDiffers || requestDiffers)
        emit targetChanged(targetKey());
    if (strategyDiffers || requestDiffers)
        emit strategyChanged(m_current->strategy);
    if (m_knownCheck) {
        m_worker->cancel(); // a check still running is for an older revision
        publish(std::exchange(m_knownCheck, nullptr));
    } else if (m_current->schedule) {
        startChecking();
    }
    setBusy();
}

void ScheduleDocument::publish(std::shared_ptr<const schedule::ScheduleCheck> check) {
    m_snapshot.revision = m_current->number;
    m_snapshot.graph = m_graph;
    m_snapshot.target = m_current->machine();
    m_snapshot.schedule = m_current->schedule;
    m_snapshot.check = std::move(check);
    emit snapshotChanged();
}

void ScheduleDocument::setBusy() {
    const bool busy = isBusy();
    if (busy == m_wasBusy)
        return;
    m_wasBusy = busy;
    emit busyChanged(busy);
}

// --- Edits ----------------------------------------------------------------------------------

EditOutcome ScheduleDocument::refuse(const QString& reason, std::vector<Diagnostic> diagnostics) {
    emit editRefused(reason, diagnostics);
    return {EditOutcome::Status::Refused, reason};
}

EditOutcome ScheduleDocument::edit(const QString& text, EditFunction function, bool asBase) {
    if (!m_graph || !m_current->schedule)
        return refuse(tr("%1: there is no schedule to edit yet").arg(text), {});
    if (m_making)
        return refuse(
            tr("%1: a new starting schedule is being made; edit it when it is ready").arg(text),
            {});
    if (m_worker->isCacheInUse()) {
        m_queued.push_back({text, std::move(function), asBase});
        return {EditOutcome::Status::Queued, {}};
    }
    return runEdit(text, function, asBase);
}

void ScheduleDocument::runQueuedEdits() {
    while (!m_queued.empty() && !m_worker->isCacheInUse() && !m_making) {
        PendingEdit next = std::move(m_queued.front());
        m_queued.erase(m_queued.begin());
        runEdit(next.text, next.edit, next.asBase);
    }
}

EditOutcome ScheduleDocument::runEdit(const QString& text, const EditFunction& function,
                                      bool asBase) {
    const target::Target& target = *m_current->target->target;
    std::shared_ptr<schedule::ScheduleCheck> check;
    schedule::EditResult result = schedule::Schedule{};
    // Core reports refusals as diagnostics; anything thrown is a bug, but not a crash.
    try {
        result = function(*m_current->schedule);
        if (!result)
            return refuse(
                tr("%1 refused: %2").arg(text, fromStd(result.diagnostics().front().message)),
                result.diagnostics());
        if (*result == *m_current->schedule)
            return {EditOutcome::Status::Unchanged, {}};
        result->strategy = "edited";
        check = std::make_shared<schedule::ScheduleCheck>(
            schedule::checkSchedule(*result, *m_graph, target, m_current->target->cache.get()));
    } catch (const std::exception& e) {
        return refuse(tr("%1 failed: %2").arg(text, QString::fromLocal8Bit(e.what())),
                      {error(std::string("edit failed: ") + e.what())});
    }
    const schedule::ScheduleCheck* before =
        m_snapshot.revision == m_current->number ? m_snapshot.check.get() : nullptr;
    if (std::vector<Diagnostic> broken = newErrors(*check, before); !broken.empty()) {
        const QString reason = tr("%1 refused: %2").arg(text, fromStd(broken.front().message));
        return refuse(reason, std::move(broken));
    }

    RevisionPtr after =
        makeRevision(*m_current, std::make_shared<const schedule::Schedule>(std::move(*result)));
    m_knownCheck = std::move(check);
    m_undo->push(new ScheduleCommand(restorer(this), text, m_current, std::move(after)));
    if (asBase)
        m_undo->clear(); // the state stays; only the way back to the one before goes
    return {EditOutcome::Status::Applied, {}};
}

EditOutcome ScheduleDocument::replaceSchedule(schedule::Schedule replacement, const QString& text) {
    return edit(text, [replacement = std::move(replacement)](const schedule::Schedule&) {
        return schedule::EditResult(replacement);
    });
}

EditOutcome ScheduleDocument::openSchedule(schedule::Schedule opened, const QString& text) {
    return edit(
        text,
        [opened = std::move(opened)](const schedule::Schedule&) {
            return schedule::EditResult(opened);
        },
        true);
}

EditOutcome ScheduleDocument::fuse(std::vector<int> blocks) {
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    QStringList names;
    for (int id : blocks)
        names << blockText(id);
    const QString text = tr("Fuse %1").arg(names.join(QStringLiteral(", ")));
    if (blocks.size() < 2)
        return refuse(tr("Select two or more blocks to fuse"), {});
    return edit(text, [graph = m_graph, blocks](const schedule::Schedule& s) {
        // Merge in schedule order into the earliest block, following it by its first op
        // (a merge keeps the earlier block's id, but the order may change).
        std::vector<int> ordered;
        for (const schedule::Block& b : s.blocks)
            if (std::binary_search(blocks.begin(), blocks.end(), b.id))
                ordered.push_back(b.id);
        for (int id : blocks)
            if (!s.findBlock(id))
                return schedule::EditResult(error("there is no block " + schedule::blockName(id)));
        const ir::OpId anchor = s.findBlock(ordered.front())->ops.front();
        schedule::Schedule current = s;
        int kept = ordered.front();
        for (std::size_t i = 1; i < ordered.size(); ++i) {
            auto merged = schedule::mergeBlocks(current, *graph, kept, ordered[i]);
            if (!merged)
                return merged;
            current = std::move(*merged);
            kept = current
                       .blocks[static_cast<std::size_t>(
                           schedule::blockIndexOfOps(current, *graph)[anchor.index])]
                       .id;
        }
        return schedule::EditResult(std::move(current));
    });
}

EditOutcome ScheduleDocument::split(ir::OpId at) {
    if (!m_graph || !at.valid() || at.index >= m_graph->ops.size())
        return refuse(tr("Split: select one op; its block is split before it"), {});
    const int block = blockOfOp(at);
    if (block < 0)
        return refuse(tr("Split: the op is in no block"), {});
    const QString text = tr("Split %1 at %2").arg(blockText(block), fromStd(m_graph->op(at).name));
    return edit(text, [graph = m_graph, block, at](const schedule::Schedule& s) {
        return schedule::splitBlock(s, *graph, block, at);
    });
}

EditOutcome ScheduleDocument::moveOp(ir::OpId op, int toBlock) {
    if (!m_graph || op.index >= m_graph->ops.size())
        return refuse(tr("Move: there is no such op"), {});
    const QString text = tr("Move %1 to %2").arg(fromStd(m_graph->op(op).name), blockText(toBlock));
    return edit(text, [graph = m_graph, op, toBlock](const schedule::Schedule& s) {
        return schedule::moveOp(s, *graph, op, toBlock);
    });
}

namespace {

int blockHolding(const schedule::Schedule& s, ir::OpId op) {
    for (const schedule::Block& block : s.blocks)
        if (std::find(block.ops.begin(), block.ops.end(), op) != block.ops.end())
            return block.id;
    return -1;
}

// The only op in `block` that `op` feeds (forward) or is fed by (backward), if there is one.
std::optional<ir::OpId> chainNeighbour(const ir::Graph& graph, const schedule::Schedule& s,
                                       ir::OpId op, int block, bool forward) {
    std::vector<ir::OpId> found;
    auto consider = [&](ir::OpId next) {
        if (next.valid() && blockHolding(s, next) == block &&
            std::find(found.begin(), found.end(), next) == found.end())
            found.push_back(next);
    };
    const ir::Op& o = graph.op(op);
    for (ir::ValueId v : forward ? o.outputs : o.inputs) {
        const ir::Value& value = graph.values[v.index];
        if (forward)
            for (ir::OpId c : value.consumers)
                consider(c);
        else
            consider(value.producer);
    }
    if (found.size() != 1)
        return std::nullopt;
    return found.front();
}

} // namespace

EditOutcome ScheduleDocument::moveBoundary(ir::OpId producer, ir::OpId consumer, ir::OpId to) {
    const std::size_t n = m_graph ? m_graph->ops.size() : 0;
    if (producer.index >= n || consumer.index >= n || to.index >= n)
        return refuse(tr("Move boundary: there is no such op"), {});
    const QString text = tr("Move the boundary to %1").arg(fromStd(m_graph->op(to).name));
    return edit(text,
                [graph = m_graph, producer, consumer,
                 to](const schedule::Schedule& s) -> schedule::EditResult {
                    const int a = blockHolding(s, producer);
                    const int b = blockHolding(s, consumer);
                    if (a < 0 || b < 0 || a == b)
                        return error("the edge no longer crosses a block boundary");
                    const int target = blockHolding(s, to);
                    if (target != a && target != b)
                        return error("drop the boundary on an op of " + schedule::blockName(a) +
                                     " or " + schedule::blockName(b) + ", the blocks it separates");
                    const bool grow =
                        target == b; // the producer's block takes ops from the consumer's
                    std::vector<ir::OpId> chain{grow ? consumer : producer};
                    while (chain.back() != to) {
                        const auto next = chainNeighbour(*graph, s, chain.back(), target, grow);
                        if (!next)
                            return error("'" + graph->op(to).name +
                                         "' is not on a chain from the boundary: '" +
                                         graph->op(chain.back()).name + "' has no single " +
                                         (grow ? "consumer" : "producer") + " in " +
                                         schedule::blockName(target));
                        chain.push_back(*next);
                    }
                    schedule::Schedule result = s;
                    for (ir::OpId op : chain) {
                        auto moved = schedule::moveOp(result, *graph, op, grow ? a : b);
                        if (!moved)
                            return moved.takeDiagnostics();
                        result = std::move(moved).value();
                    }
                    return result;
                });
}

EditOutcome ScheduleDocument::setMp(int block, int mp) {
    return edit(tr("Set mp of %1 to %2").arg(blockText(block)).arg(mp),
                [block, mp](const schedule::Schedule& s) { return schedule::setMp(s, block, mp); });
}

EditOutcome ScheduleDocument::setTile(int block, schedule::TileSpec tile) {
    const QString text =
        tr("Set tile of %1 to %2").arg(blockText(block), fromStd(schedule::tileToString(tile)));
    return edit(text, [graph = m_graph, block, tile](const schedule::Schedule& s) {
        return schedule::setTile(s, *graph, block, tile);
    });
}

EditOutcome ScheduleDocument::setBuffering(int block, int buffering) {
    return edit(tr("Set buffering of %1 to %2")
                    .arg(blockText(block), buffering == 2   ? tr("double")
                                           : buffering == 1 ? tr("single")
                                                            : QString::number(buffering)),
                [block, buffering](const schedule::Schedule& s) {
                    return schedule::setBuffering(s, block, buffering);
                });
}

int ScheduleDocument::blockOfOp(ir::OpId op) const {
    if (!m_graph || !m_current->schedule || op.index >= m_graph->ops.size())
        return -1;
    for (const schedule::Block& b : m_current->schedule->blocks)
        if (std::find(b.ops.begin(), b.ops.end(), op) != b.ops.end())
            return b.id;
    return -1;
}

std::vector<int> ScheduleDocument::neighbourBlocks(ir::OpId op) const {
    std::vector<int> out;
    if (!m_graph || !m_current->schedule || op.index >= m_graph->ops.size())
        return out;
    const schedule::Schedule& s = *m_current->schedule;
    const std::vector<int> indexOf = schedule::blockIndexOfOps(s, *m_graph);
    const int own = indexOf[op.index];
    std::vector<bool> touches(s.blocks.size(), false);
    const ir::Op& o = m_graph->op(op);
    for (ir::ValueId in : o.inputs)
        if (in.valid() && m_graph->value(in).producer.valid())
            if (const int b = indexOf[m_graph->value(in).producer.index]; b >= 0)
                touches[static_cast<std::size_t>(b)] = true;
    for (ir::ValueId result : o.outputs)
        if (result.valid())
            for (ir::OpId consumer : m_graph->value(result).consumers)
                if (const int b = indexOf[consumer.index]; b >= 0)
                    touches[static_cast<std::size_t>(b)] = true;
    for (std::size_t b = 0; b < s.blocks.size(); ++b)
        if (touches[b] && static_cast<int>(b) != own)
            out.push_back(s.blocks[b].id);
    return out;
}

} // namespace strata::gui
