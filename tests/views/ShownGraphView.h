#pragma once
// The fixture of the graph view's tests: a GraphView shown at 1000x700 with animation off, exposed
// before the test starts (a view that never appears fails the test).

#include "views/graph/GraphView.h"

#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::test {

class ShownGraphView : public ::testing::Test {
  protected:
    void SetUp() override {
        m_view.resize(1000, 700);
        m_view.setAnimated(false);
        m_view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    }

    graph::GraphView m_view;
};

} // namespace strata::views::test
