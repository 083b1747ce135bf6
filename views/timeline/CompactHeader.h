#pragma once
// A horizontal header that makes room for the sort arrow on the sorted section only. Qt sizes
// every section of a sortable header for an arrow (a row's height each), which in a narrow
// table of short figures is a third of its width; sections are fitted again when the sort
// column changes.

#include <QHeaderView>

namespace strata::views::timeline {

class CompactHeader : public QHeaderView {
    Q_OBJECT

  public:
    explicit CompactHeader(QWidget* parent = nullptr);

  protected:
    QSize sectionSizeFromContents(int logicalIndex) const override;
};

} // namespace strata::views::timeline
