#pragma once
// The Pipeline tab: the compiler's passes of the last compile (name, what it does, time, share
// of the total as a bar) with totals, and the IR after the selected pass in a read-only
// monospace text view. A dump of hundreds of thousands of lines is shown up to a limit (set
// once, no incremental appends) and can be saved whole.

#include "views/program/CompiledProgram.h"

#include <QWidget>
#include <string>
#include <string_view>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace strata::views::program {
class StaleBanner;
}

namespace strata::views::pipeline {

class PassTableModel;

class PipelineView : public QWidget {
    Q_OBJECT

  public:
    // Dumps longer than this many lines (or kMaxShownBytes) show their beginning.
    static constexpr int kMaxShownLines = 20'000;
    static constexpr std::size_t kMaxShownBytes = 2u << 20;

    explicit PipelineView(QWidget* parent = nullptr);

    // Shows the passes of `compiled`, keeping the selected pass by name (else the first).
    void setProgram(const program::CompiledProgram& compiled);
    void showMessage(const QString& text);
    void setStale(bool stale);
    bool isStale() const;
    void setCompileAction(QAction* action);

    // Selects the pass called `name`; false if there is none.
    bool selectPass(const QString& name);
    QString selectedPass() const;

    PassTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* dumpView() const { return m_dump; }
    QLabel* totals() const { return m_totals; }

    // The part of `dump` the view shows: whole lines, at most `maxLines` and `maxBytes`.
    static std::string_view shownPart(std::string_view dump, int maxLines, std::size_t maxBytes);

  private:
    QWidget* createPassesPage();
    QWidget* createMessagePage();
    void showDump();
    void saveDump();

    PassTableModel* m_model = nullptr;
    program::CompiledProgram m_compiled;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QToolButton* m_messageCompile = nullptr;
    program::StaleBanner* m_banner = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_dumpTitle = nullptr;
    QPushButton* m_save = nullptr;
    QPlainTextEdit* m_dump = nullptr;
    int m_shownRow = -2; // the pass whose dump the text view holds
};

} // namespace strata::views::pipeline
