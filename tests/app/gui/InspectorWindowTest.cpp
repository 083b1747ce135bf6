// The Inspector dock in the main window: selecting an op in the graph shows its type,
// attributes, inputs with their weights, and its block; the block's mp typed into the
// inspector is an undoable schedule edit like one made in the table.

#include "support/GuiTestSupport.h"
#include "panels/InspectorDock.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "support/WindowFixture.h"
#include "views/Format.h"
#include "views/graph/GraphView.h"
#include "views/inspector/InspectorView.h"

#include <QLabel>
#include <QSpinBox>
#include <QUndoStack>
#include <gtest/gtest.h>
#include <optional>

namespace strata::gui {
namespace {

using test::settle;

class InspectorWindowTest : public test::WindowFixture {
  protected:
    void SetUp() override {
        WindowFixture::SetUp();
        ASSERT_TRUE(openSample("resnet_tiny.onnx", QStringLiteral("mncore2")))
            << "cannot open the committed sample";
        m_inspector = m_window->inspectorDock();
        ASSERT_NE(m_inspector, nullptr);
        ASSERT_TRUE(m_inspector->isVisible());
    }

    const ir::Graph& graph() const { return *m_window->scheduleDocument()->graph(); }
    views::inspector::InspectorView& view() const { return *m_inspector->view(); }

    // The first op of `type` in the sample.
    std::optional<ir::OpId> firstOf(const char* type) const {
        for (std::size_t i = 0; i < graph().ops.size(); ++i)
            if (graph().ops[i].type == type)
                return ir::OpId(static_cast<std::uint32_t>(i));
        return std::nullopt;
    }

    InspectorDock* m_inspector = nullptr;
};

TEST_F(InspectorWindowTest, SelectingAConvShowsItsAttributesInputsAndBlock) {
    const auto conv = firstOf("Conv");
    ASSERT_TRUE(conv) << "the sample has a Conv";
    const ir::Op& op = graph().op(*conv);
    m_window->graphTab()->view()->selectOp(*conv);

    EXPECT_TRUE(m_inspector->findChild<QLabel*>(QStringLiteral("inspectorTitle"))
                    ->text()
                    .contains(QString::fromStdString(op.name)));
    EXPECT_EQ(view().value(QStringLiteral("Op"), QStringLiteral("Type")), QStringLiteral("Conv"));
    ASSERT_FALSE(op.attributes.empty());
    for (const ir::Attribute& attribute : op.attributes)
        EXPECT_EQ(
            view().value(QStringLiteral("Attributes"), QString::fromStdString(attribute.name)),
            QString::fromStdString(ir::attributeToString(attribute.value)))
            << attribute.name;
    // The weight (input #1) with its shape, and the op's FLOPs as the op table formats them.
    const ir::Value& weight = graph().value(op.inputs.at(1));
    const QString weightRow = view().value(
        QStringLiteral("Inputs"), QStringLiteral("#1 %1").arg(QString::fromStdString(weight.name)));
    EXPECT_TRUE(weightRow.contains(views::formatShape(weight.shape))) << weightRow.toStdString();
    EXPECT_TRUE(weightRow.contains(QStringLiteral("weight"))) << weightRow.toStdString();
    EXPECT_EQ(view().value(QStringLiteral("Cost"), QStringLiteral("FLOPs")),
              views::formatFlops(op.cost.flops));
    // Its block follows, with the mp editor for it.
    const int block = m_window->scheduleDocument()->blockOfOp(*conv);
    EXPECT_EQ(m_inspector->shownBlock(), block);
    const schedule::Block* b = m_window->scheduleDocument()->schedule()->findBlock(block);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(view().value(QStringLiteral("Block B%1").arg(block), QStringLiteral("Cores (mp)")),
              QString::number(b->mp));
    EXPECT_FALSE(view().value(QStringLiteral("Tiling"), QStringLiteral("Grid")).isEmpty());
    EXPECT_TRUE(m_inspector->mpEditor()->isEnabled());
    EXPECT_EQ(m_inspector->mpEditor()->value(), b->mp);
}

TEST_F(InspectorWindowTest, TypingAnMpIsAnUndoableEdit) {
    ScheduleDocument& document = *m_window->scheduleDocument();
    const schedule::Block first = document.schedule()->blocks.front();
    ASSERT_GT(document.target()->maxMp(), 1) << "mncore2 has several cores";
    const int wanted = first.mp == 1 ? 2 : 1;
    m_window->graphTab()->view()->selectBlock(first.id);
    ASSERT_EQ(m_inspector->shownBlock(), first.id);

    QSpinBox* mp = m_inspector->mpEditor();
    mp->setFocus();
    QTest::keyClick(mp, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(mp, QString::number(wanted));
    QTest::keyClick(mp, Qt::Key_Return);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return document.schedule()->findBlock(first.id)->mp == wanted; }, 10'000));
    ASSERT_TRUE(settle(*m_window));
    EXPECT_EQ(mp->value(), wanted);
    EXPECT_TRUE(document.undoStack()->canUndo());

    document.undoStack()->undo();
    ASSERT_TRUE(settle(*m_window));
    EXPECT_EQ(document.schedule()->findBlock(first.id)->mp, first.mp);
    EXPECT_EQ(mp->value(), first.mp); // the inspector follows the undo
}

TEST_F(InspectorWindowTest, NothingSelectedShowsAHintAndNoEditor) {
    m_inspector->showNothing();
    EXPECT_FALSE(m_inspector->mpEditor()->isEnabled());
    EXPECT_EQ(view().topLevelItemCount(), 0);
}

} // namespace
} // namespace strata::gui
