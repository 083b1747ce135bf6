#pragma once
// The Program tab: the assembly listing of the last compile (ProgramListingModel in a table
// with fixed row heights, so half a million rows scroll as smoothly as fifty), filters by core,
// kind and block, a search box, the program's totals, and a banner when the schedule changed
// since the compile. It highlights what the rest of the window selects (an op's or a block's
// instructions) and says which instruction the user picked; compiling is the caller's job.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "views/program/CompiledProgram.h"

#include <QWidget>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace strata::views::program {

class ProgramListingModel;
class StaleBanner;

class ProgramView : public QWidget {
    Q_OBJECT

  public:
    explicit ProgramView(QWidget* parent = nullptr);

    // Shows the listing of `compiled` (up to date: the banner goes).
    void setProgram(const CompiledProgram& compiled);
    // Replaces the listing with `message` and the compile button.
    void showMessage(const QString& text);
    // The banner saying the listing is of an older schedule (`stale`), or none.
    void setStale(bool stale);
    bool isStale() const;
    // The action the placeholder's and the banner's buttons trigger (e.g. Compile, F7).
    void setCompileAction(QAction* action);

    // Highlights the instructions of `op` (or of `block`) and, unless the current row is one of
    // them, makes the first current and scrolls to it. Emits nothing.
    void highlightOp(ir::OpId op);
    void highlightBlock(int block);
    void clearHighlight();
    // Makes the next (previous) highlighted row current.
    void showNextHighlighted(bool forward = true);

    // The current row's instruction, if any.
    std::optional<compiler::InstrId> currentInstruction() const;
    // Makes `id`'s row current (clearing filters that hide it); false if there is no such
    // instruction. Emits instructionSelected like a click.
    bool selectInstruction(compiler::InstrId id);

    ProgramListingModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* searchField() const { return m_search; }
    QComboBox* coreFilter() const { return m_core; }
    QComboBox* kindFilter() const { return m_kind; }
    QComboBox* blockFilter() const { return m_block; }
    bool isShowingProgram() const;

  signals:
    // The user made an instruction current (click, keys, selectInstruction()).
    void instructionSelected(strata::compiler::InstrId id);

  private:
    QWidget* createListingPage();
    QWidget* createMessagePage();
    void fillFilters();
    void applyFilter();
    void onCurrentRowChanged();
    void highlight(bool any);
    void updateCounts();
    void fitColumns();

    ProgramListingModel* m_model = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QToolButton* m_messageCompile = nullptr;
    QLabel* m_summary = nullptr;
    StaleBanner* m_banner = nullptr;
    QComboBox* m_core = nullptr;
    QComboBox* m_kind = nullptr;
    QComboBox* m_block = nullptr;
    QLineEdit* m_search = nullptr;
    QTimer* m_searchDelay = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_linked = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QTableView* m_table = nullptr;
    bool m_programmatic = false; // current row set by highlight: not the user's pick
};

} // namespace strata::views::program
