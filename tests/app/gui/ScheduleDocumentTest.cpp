// The schedule document on a real sample: the default starting schedule, edits through core's
// edit functions as undoable commands (undo restores the schedule exactly), refused edits that
// change nothing, new starting schedules for another strategy or target, a target file that
// does not load, edits queued behind a background check, and stale results dropped.

#include "document/ScheduleDocument.h"

#include "model/OnnxImporter.h"
#include "support/GuiTestSupport.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using Status = EditOutcome::Status;
namespace sch = strata::schedule;

std::shared_ptr<const ir::Graph> importSample(const char* name) {
    const QString path = test::samplePath(name);
    if (!QFileInfo::exists(path))
        return nullptr;
    auto imported = model::importOnnxFile(path.toStdString());
    EXPECT_TRUE(imported.ok());
    return imported ? imported->graph : nullptr;
}

class ScheduleDocumentTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_graph = importSample("resnet_tiny.onnx");
        if (!m_graph)
            FAIL() << "cannot open the committed sample";
    }

    bool settle() {
        return test::waitUntilIdle([&] { return m_document.isBusy(); });
    }

    // Opens the sample and waits for its starting schedule. Tests that set knobs use mncore2:
    // the host's core count depends on the machine.
    void open(sch::Strategy strategy = ScheduleDocument::kDefaultStrategy,
              const QString& target = QStringLiteral("mncore2")) {
        // No graph yet: nothing is made.
        m_document.setStrategy(strategy);
        ASSERT_TRUE(m_document.setTarget(target));
        m_document.setGraph(m_graph);
        EXPECT_TRUE(m_document.isBusy());
        ASSERT_TRUE(settle());
        ASSERT_NE(m_document.schedule(), nullptr);
    }

    const sch::Schedule& schedule() const { return *m_document.schedule(); }

    // Moves an op across a block boundary: the first move into a neighbouring block that the
    // document accepts (some would make a block non-convex). Returns the op and its new block.
    std::optional<std::pair<ir::OpId, int>> moveSomeOp() {
        for (const sch::Block& block : schedule().blocks)
            for (ir::OpId op : block.ops)
                for (int to : m_document.neighbourBlocks(op))
                    if (m_document.moveOp(op, to).applied())
                        return std::pair{op, to};
        return std::nullopt;
    }

    std::shared_ptr<const ir::Graph> m_graph;
    ScheduleDocument m_document;
};

TEST_F(ScheduleDocumentTest, StartsWithHostAndFuseMax) {
    EXPECT_EQ(m_document.targetKey(), QStringLiteral("host"));
    EXPECT_EQ(m_document.strategy(), sch::Strategy::FuseMax);
    EXPECT_EQ(m_document.schedule(), nullptr);
    open(ScheduleDocument::kDefaultStrategy, QStringLiteral("host"));
    EXPECT_EQ(schedule().strategy, "fuse-max");
    EXPECT_EQ(schedule().targetName, m_document.target()->name);
    EXPECT_FALSE(schedule().blocks.empty());
    // The checked snapshot is of exactly this revision, and the first schedule is not an
    // undo step.
    const auto& snap = m_document.snapshot();
    EXPECT_TRUE(snap.isComplete());
    EXPECT_EQ(snap.revision, m_document.revision()->number);
    EXPECT_EQ(snap.schedule, m_document.schedule());
    EXPECT_TRUE(snap.check->valid());
    EXPECT_EQ(m_document.undoStack()->count(), 0);
}

TEST_F(ScheduleDocumentTest, MovingAnOpIsUndoableExactly) {
    open();
    const auto before = m_document.schedule();
    QSignalSpy snapshots(&m_document, &ScheduleDocument::snapshotChanged);
    const auto move = moveSomeOp();
    ASSERT_TRUE(move);
    const auto after = m_document.schedule();
    EXPECT_NE(*after, *before);
    EXPECT_EQ(m_document.blockOfOp(move->first), move->second);
    EXPECT_EQ(after->strategy, "edited");
    // Checked at once: the new snapshot is there without waiting.
    EXPECT_EQ(snapshots.count(), 1);
    EXPECT_EQ(m_document.snapshot().schedule, after);
    EXPECT_EQ(m_document.undoStack()->count(), 1);

    m_document.undoStack()->undo();
    EXPECT_EQ(*m_document.schedule(), *before);
    ASSERT_TRUE(settle());
    EXPECT_EQ(m_document.snapshot().revision, m_document.revision()->number);
    EXPECT_EQ(*m_document.snapshot().schedule, *before);

    m_document.undoStack()->redo();
    EXPECT_EQ(*m_document.schedule(), *after);
    ASSERT_TRUE(settle());
    EXPECT_EQ(*m_document.snapshot().schedule, *after);
}

TEST_F(ScheduleDocumentTest, ANonConvexFuseIsRefusedAndNothingChanges) {
    open(sch::Strategy::PerOp);
    ASSERT_GE(schedule().blocks.size(), 3u);
    // Per-op blocks of a chain: conv -> bn -> relu. Fusing the first and the third would
    // leave a path out of the block and back in.
    const auto before = m_document.schedule();
    const RevisionPtr revision = m_document.revision();
    QSignalSpy refused(&m_document, &ScheduleDocument::editRefused);
    const EditOutcome outcome = m_document.fuse({schedule().blocks[0].id, schedule().blocks[2].id});
    EXPECT_TRUE(outcome.refused());
    EXPECT_TRUE(outcome.reason.contains(QStringLiteral("convex"))) << outcome.reason.toStdString();
    ASSERT_EQ(refused.count(), 1);
    EXPECT_EQ(refused.at(0).at(0).toString(), outcome.reason);
    EXPECT_EQ(m_document.schedule(), before);
    EXPECT_EQ(m_document.revision(), revision);
    EXPECT_EQ(m_document.undoStack()->count(), 0);
}

TEST_F(ScheduleDocumentTest, MpBeyondTheTargetIsRefusedByTheCheck) {
    open();
    const auto before = m_document.schedule();
    const int block = schedule().blocks.front().id;
    const EditOutcome outcome = m_document.setMp(block, m_document.target()->maxMp() + 1);
    EXPECT_TRUE(outcome.refused());
    EXPECT_TRUE(outcome.reason.contains(QStringLiteral("mp"))) << outcome.reason.toStdString();
    EXPECT_EQ(m_document.schedule(), before);
    EXPECT_EQ(m_document.undoStack()->count(), 0);
    // A refusal from the edit function itself, too.
    EXPECT_TRUE(m_document.setBuffering(block, 3).refused());
    EXPECT_TRUE(m_document.setTile(block, {ir::Shape{1}}).refused());
    EXPECT_EQ(m_document.schedule(), before);
}

TEST_F(ScheduleDocumentTest, FuseSplitAndKnobsAreCommands) {
    open(sch::Strategy::PerOp);
    const auto perOp = m_document.schedule();
    const sch::Block first = schedule().blocks[0];
    const sch::Block second = schedule().blocks[1];
    ASSERT_TRUE(m_document.fuse({second.id, first.id}).applied());
    ASSERT_EQ(schedule().blocks.size(), perOp->blocks.size() - 1);
    EXPECT_EQ(schedule().blocks[0].id, first.id);
    EXPECT_EQ(schedule().blocks[0].ops.size(), 2u);

    ASSERT_TRUE(m_document.split(second.ops.front()).applied());
    EXPECT_EQ(schedule().blocks.size(), perOp->blocks.size());
    EXPECT_EQ(schedule().blocks[1].ops, second.ops);

    EXPECT_TRUE(m_document.setMp(first.id, 1).applied());
    EXPECT_EQ(schedule().findBlock(first.id)->mp, 1);
    EXPECT_TRUE(m_document.setBuffering(first.id, 1).applied());
    EXPECT_EQ(m_document.setBuffering(first.id, 1).status, Status::Unchanged);
    EXPECT_EQ(m_document.undoStack()->count(), 4);
    EXPECT_EQ(m_document.undoStack()->text(0),
              QStringLiteral("Fuse B%1, B%2").arg(first.id).arg(second.id));

    while (m_document.undoStack()->canUndo())
        m_document.undoStack()->undo();
    EXPECT_EQ(*m_document.schedule(), *perOp);
}

TEST_F(ScheduleDocumentTest, ANewStrategyOrTargetIsOneUndoableCommand) {
    open(ScheduleDocument::kDefaultStrategy, QStringLiteral("host"));
    const auto fuseMax = m_document.schedule();
    QSignalSpy targets(&m_document, &ScheduleDocument::targetChanged);

    m_document.setStrategy(sch::Strategy::PerOp);
    EXPECT_TRUE(m_document.isMaking());
    ASSERT_TRUE(settle());
    EXPECT_EQ(schedule().strategy, "per-op");
    EXPECT_EQ(schedule().blocks.size(), m_graph->ops.size());
    EXPECT_EQ(m_document.undoStack()->count(), 1);

    ASSERT_TRUE(m_document.setTarget(QStringLiteral("mncore2")));
    ASSERT_TRUE(settle());
    EXPECT_EQ(schedule().targetName, "mncore2");
    EXPECT_EQ(m_document.targetKey(), QStringLiteral("mncore2"));
    EXPECT_EQ(m_document.snapshot().target->name, "mncore2");
    EXPECT_EQ(m_document.undoStack()->count(), 2);

    m_document.undoStack()->undo();
    EXPECT_EQ(m_document.targetKey(), QStringLiteral("host"));
    EXPECT_EQ(targets.last().at(0).toString(), QStringLiteral("host"));
    m_document.undoStack()->undo();
    EXPECT_EQ(*m_document.schedule(), *fuseMax);
    EXPECT_EQ(m_document.strategy(), sch::Strategy::FuseMax);
    ASSERT_TRUE(settle());
    EXPECT_EQ(m_document.snapshot().schedule, m_document.schedule());
}

TEST_F(ScheduleDocumentTest, ATargetFileThatDoesNotLoadIsReported) {
    open(ScheduleDocument::kDefaultStrategy, QStringLiteral("host"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"strata_target": 1, "name": "broken", "clock_hz": -5})");
    file.close();
    const auto before = m_document.schedule();
    QSignalSpy problems(&m_document, &ScheduleDocument::problemsReported);
    QSignalSpy targets(&m_document, &ScheduleDocument::targetChanged);
    EXPECT_FALSE(m_document.setTarget(path));
    ASSERT_EQ(problems.count(), 1);
    const auto diagnostics = problems.at(0).at(0).value<std::vector<Diagnostic>>();
    EXPECT_TRUE(hasErrors(diagnostics));
    // The selector goes back to the target in use.
    ASSERT_EQ(targets.count(), 1);
    EXPECT_EQ(targets.at(0).at(0).toString(), QStringLiteral("host"));
    EXPECT_EQ(m_document.targetKey(), QStringLiteral("host"));
    EXPECT_FALSE(m_document.isBusy());
    EXPECT_EQ(m_document.schedule(), before);
}

TEST_F(ScheduleDocumentTest, HostIsTheCalibratedTargetWhenOneWasWritten) {
    // main.cpp points XDG_CONFIG_HOME at an empty directory: `host` starts as the preset.
    open(ScheduleDocument::kDefaultStrategy, QStringLiteral("host"));
    EXPECT_FALSE(m_document.target()->calibrated);
    const std::string file = target::defaultCalibratedHostFile();
    ASSERT_FALSE(file.empty());
    auto preset = target::resolveTarget("host");
    ASSERT_TRUE(preset.ok());
    target::Target calibrated = *preset;
    calibrated.calibrated = true;
    calibrated.overheads.barrierCycles = 1234;
    ASSERT_TRUE(QDir().mkpath(QFileInfo(QString::fromStdString(file)).path()));
    QFile out(QString::fromStdString(file));
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(target::targetToJson(calibrated)));
    out.close();

    QSignalSpy messages(&m_document, &ScheduleDocument::statusMessage);
    EXPECT_TRUE(m_document.setTarget(QStringLiteral("host")));
    EXPECT_TRUE(m_document.target()->calibrated);
    EXPECT_EQ(m_document.target()->overheads.barrierCycles, 1234);
    ASSERT_GE(messages.count(), 1);
    EXPECT_TRUE(messages.at(0).at(0).toString().contains(QStringLiteral("calibrated figures from")))
        << messages.at(0).at(0).toString().toStdString();
    // host-uncalibrated is the preset whatever the file says.
    EXPECT_TRUE(m_document.setTarget(QString::fromUtf8(target::kUncalibratedHost.data())));
    EXPECT_FALSE(m_document.target()->calibrated);
    ASSERT_TRUE(settle());
    QFile::remove(QString::fromStdString(file)); // the other tests keep the preset
}

TEST_F(ScheduleDocumentTest, EditsWaitForARunningCheck) {
    open(sch::Strategy::PerOp);
    const int block = schedule().blocks[0].id;
    ASSERT_EQ(schedule().blocks[0].buffering, 2);
    ASSERT_TRUE(m_document.setMp(block, 1).applied());
    m_document.undoStack()->undo(); // checks the restored schedule in the background
    ASSERT_TRUE(m_document.isBusy());
    EXPECT_EQ(m_document.setBuffering(block, 1).status, Status::Queued);
    EXPECT_EQ(schedule().findBlock(block)->buffering, 2);
    ASSERT_TRUE(test::waitUntilIdle(
        [&] { return m_document.isBusy() || schedule().findBlock(block)->buffering != 1; }));
    EXPECT_EQ(schedule().findBlock(block)->mp, m_document.target()->maxMp());
    EXPECT_EQ(m_document.snapshot().schedule, m_document.schedule());
}

TEST_F(ScheduleDocumentTest, OnlyTheNewestStartingScheduleArrives) {
    open();
    m_document.setStrategy(sch::Strategy::Rules);
    m_document.setStrategy(sch::Strategy::PerOp);
    ASSERT_TRUE(settle());
    JobRunner::instance().drain(); // a stale result, had it come, has now
    EXPECT_EQ(schedule().strategy, "per-op");
    EXPECT_EQ(m_document.undoStack()->count(), 1);
    EXPECT_EQ(m_document.strategy(), sch::Strategy::PerOp);
}

TEST_F(ScheduleDocumentTest, EditingBeforeThereIsAScheduleIsRefused) {
    EXPECT_TRUE(m_document.setMp(0, 1).refused());
    m_document.setGraph(m_graph);
    ASSERT_TRUE(m_document.isMaking());
    // While the starting schedule is being made, edits are refused rather than guessed at.
    EXPECT_TRUE(m_document.fuse({0, 1}).refused());
    ASSERT_TRUE(settle());
}

} // namespace
} // namespace strata::gui
