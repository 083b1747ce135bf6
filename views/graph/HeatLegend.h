#pragma once
// The heat overlay's legend: what colours the blocks, the colour bar from the smallest to the
// largest value, and both ends as text. Drawn over the graph canvas's corner.

#include <QString>
#include <QWidget>

namespace strata::views::graph {

class HeatLegend : public QWidget {
    Q_OBJECT

  public:
    explicit HeatLegend(QWidget* parent = nullptr);

    // `low` and `high` are the bar's ends as text ("0", "2.41 ms"); an empty `note` hides none.
    void setScale(const QString& title, const QString& low, const QString& high);
    // A legend with no bar, only a line (e.g. "No prediction yet").
    void setNote(const QString& title, const QString& note);
    QString title() const { return m_title; }
    QString low() const { return m_low; }
    QString high() const { return m_high; }
    QString note() const { return m_note; }

    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QString m_title;
    QString m_low;
    QString m_high;
    QString m_note;
};

} // namespace strata::views::graph
