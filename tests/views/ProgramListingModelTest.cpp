// The assembly listing model over a real compile of a small graph: the model contract (also
// while filtering and highlighting), rows in the assembly's order, filters by core, kind, block
// and search that keep exactly the matching instructions, and highlights of an op's or a
// block's instructions.

#include "views/program/ProgramListingModel.h"

#include "TestGraphs.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::views::program {
namespace {

using compiler::InstrKind;
using M = ProgramListingModel;

class ProgramListingModelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_graph = test::makeSmallGraph();
        auto target = target::resolveTarget("mncore2");
        ASSERT_TRUE(target.ok());
        // One block per op, on two cores: several cores, kinds and blocks to filter by.
        schedule::Schedule s = schedule::makeSchedule(*m_graph, *target, schedule::Strategy::PerOp);
        for (auto& block : s.blocks)
            block.mp = 2;
        auto result = compiler::compile(*m_graph, *target, s);
        ASSERT_TRUE(result.ok()) << result.diagnostics().front().toString();
        m_program = std::make_shared<const compiler::Program>(std::move(result->program));
        m_model.setProgram(m_graph, m_program);
    }

    const compiler::Instruction& at(int row) const { return m_model.instructionAt(row); }

    // Instructions for which `pred` holds, by brute force over the program.
    template <class Pred> int countWhere(Pred pred) const {
        int n = 0;
        for (const auto& in : m_program->instructions)
            n += pred(in) ? 1 : 0;
        return n;
    }

    std::shared_ptr<const ir::Graph> m_graph;
    std::shared_ptr<const compiler::Program> m_program;
    M m_model;
};

TEST_F(ProgramListingModelTest, PassesTheModelTesterWhileFilteringAndHighlighting) {
    QAbstractItemModelTester tester(&m_model,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    ListingFilter f;
    f.core = 1;
    m_model.setFilter(f);
    f.kind = InstrKind::Compute;
    m_model.setFilter(f);
    m_model.setHighlight({std::nullopt, 1});
    f.search = QStringLiteral("relu");
    m_model.setFilter(f);
    m_model.setFilter({});
    m_model.setProgram(nullptr, nullptr);
    EXPECT_EQ(m_model.rowCount(), 0);
    m_model.setProgram(m_graph, m_program);
    EXPECT_GT(m_model.rowCount(), 0);
}

TEST_F(ProgramListingModelTest, ListsEveryInstructionPerCoreInIssueOrder) {
    ASSERT_EQ(m_model.rowCount(), static_cast<int>(m_program->instructions.size()));
    int row = 0;
    for (const auto& stream : m_program->streams)
        for (compiler::InstrId id : stream) {
            EXPECT_EQ(at(row).id, id);
            EXPECT_EQ(m_model.rowOfInstruction(id), row);
            ++row;
        }
    const QModelIndex first = m_model.index(0, M::IdColumn);
    EXPECT_EQ(first.data().toString(), M::idText(at(0).id));
    EXPECT_EQ(m_model.index(0, M::TextColumn).data().toString(),
              QString::fromStdString(compiler::instructionText(at(0), *m_program, *m_graph)));
    EXPECT_EQ(m_model.index(0, M::CoreColumn).data().toInt(), at(0).core);
    EXPECT_EQ(M::idText(42), QStringLiteral("i000042"));
}

TEST_F(ProgramListingModelTest, TheTextIsTheAssemblyLineAfterTheId) {
    const std::string assembly = compiler::emitAssembly(*m_program, *m_graph);
    for (int row = 0; row < m_model.rowCount(); ++row) {
        const std::string line = M::idText(at(row).id).toStdString() + "  " +
                                 m_model.index(row, M::TextColumn).data().toString().toStdString();
        EXPECT_NE(assembly.find(line + "\n"), std::string::npos) << line;
    }
}

TEST_F(ProgramListingModelTest, FiltersKeepExactlyTheMatchingInstructions) {
    // A core other than 0 that moves data (a block's cores are spread over the chip).
    int core = 0;
    for (const auto& in : m_program->instructions)
        if (in.core != 0 && in.kind() == InstrKind::Transfer)
            core = in.core;
    ASSERT_NE(core, 0);
    ListingFilter f;
    f.core = core;
    f.kind = InstrKind::Transfer;
    m_model.setFilter(f);
    const int expected = countWhere(
        [&](const auto& in) { return in.core == core && in.kind() == InstrKind::Transfer; });
    ASSERT_GT(expected, 0);
    EXPECT_EQ(m_model.rowCount(), expected);
    for (int row = 0; row < m_model.rowCount(); ++row) {
        EXPECT_EQ(at(row).core, core);
        EXPECT_EQ(at(row).kind(), InstrKind::Transfer);
    }

    const std::vector<int> blocks = m_model.blockIds();
    ASSERT_GE(blocks.size(), 2u);
    f = {};
    f.block = blocks[1];
    m_model.setFilter(f);
    EXPECT_EQ(m_model.rowCount(),
              countWhere([&](const auto& in) { return in.from.block == blocks[1]; }));
    // An instruction filtered out has no row.
    for (const auto& in : m_program->instructions) {
        if (in.from.block != blocks[1]) {
            EXPECT_EQ(m_model.rowOfInstruction(in.id), -1);
        }
    }
}

TEST_F(ProgramListingModelTest, SearchMatchesOpsTensorsMnemonicsAndIds) {
    ListingFilter f;
    f.search = QStringLiteral("RELU1"); // the op's name, any case
    m_model.setFilter(f);
    const ir::OpId relu = *m_graph->findOp("relu1");
    EXPECT_EQ(m_model.rowCount(), countWhere([&](const auto& in) {
                  const auto* t = std::get_if<compiler::Transfer>(&in.body);
                  return in.from.op == relu ||
                         (t && m_graph->value(t->value).name.find("relu1") != std::string::npos);
              }));
    EXPECT_GT(m_model.rowCount(), 0);

    f.search = QStringLiteral("wait");
    m_model.setFilter(f);
    EXPECT_EQ(m_model.rowCount(),
              countWhere([](const auto& in) { return in.kind() == InstrKind::Wait; }));

    f.search = M::idText(3);
    m_model.setFilter(f);
    ASSERT_EQ(m_model.rowCount(), 1);
    EXPECT_EQ(at(0).id, 3u);

    f.search = QStringLiteral("no such thing");
    m_model.setFilter(f);
    EXPECT_EQ(m_model.rowCount(), 0);
}

TEST_F(ProgramListingModelTest, HighlightsAnOpsOrABlocksInstructions) {
    const ir::OpId conv = *m_graph->findOp("conv1");
    QSignalSpy changed(&m_model, &QAbstractItemModel::dataChanged);
    ListingHighlight h;
    h.op = conv;
    m_model.setHighlight(h);
    EXPECT_EQ(changed.count(), 1);
    const int ofConv = countWhere([&](const auto& in) { return in.from.op == conv; });
    ASSERT_GT(ofConv, 0);
    EXPECT_EQ(m_model.highlightedCount(), ofConv);
    for (int row = 0; row < m_model.rowCount(); ++row)
        EXPECT_EQ(m_model.index(row, 0).data(M::HighlightedRole).toBool(), at(row).from.op == conv);

    // nextHighlighted walks the highlighted rows in order and wraps.
    const int first = m_model.nextHighlighted(-1);
    ASSERT_GE(first, 0);
    EXPECT_EQ(at(first).from.op, conv);
    int row = first, seen = 0;
    do {
        row = m_model.nextHighlighted(row);
        ++seen;
    } while (row != first && seen <= ofConv);
    EXPECT_EQ(seen, ofConv);
    EXPECT_EQ(m_model.nextHighlighted(first, false), m_model.nextHighlighted(first + 0, false));

    m_model.setHighlight({std::nullopt, at(0).from.block});
    EXPECT_EQ(m_model.highlightedCount(),
              countWhere([&](const auto& in) { return in.from.block == at(0).from.block; }));
    m_model.setHighlight({});
    EXPECT_EQ(m_model.highlightedCount(), 0);
    EXPECT_EQ(m_model.nextHighlighted(0), -1);
}

TEST_F(ProgramListingModelTest, AFilterOnACoreTheNextProgramLacksIsDropped) {
    ListingFilter f;
    f.core = 1;
    f.kind = InstrKind::Wait;
    m_model.setFilter(f);
    auto single = std::make_shared<compiler::Program>(*m_program);
    single->cores = 1;
    single->streams.resize(1);
    m_model.setProgram(m_graph, single);
    EXPECT_EQ(m_model.filter().core, -1);
    EXPECT_EQ(m_model.filter().kind, InstrKind::Wait); // still meaningful
}

} // namespace
} // namespace strata::views::program
