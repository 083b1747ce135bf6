#pragma once
// The assembly listing of a compiled program, one row per instruction, in the order the
// assembly file lists them (per core, in issue order). Built for programs of hundreds of
// thousands of instructions: rows are indices into the program, the text of a row is formatted
// when a view asks for it (with a small cache), and filtering rebuilds one index vector instead
// of going through a proxy.
//
// Linked selection: the model highlights the instructions of one op or one block (a tinted
// background); the view decides where to scroll.

#include "compiler/Program.h"
#include "ir/Graph.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QString>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace strata::views::program {

struct ListingFilter {
    int core = -1;                           // -1: every core
    std::optional<compiler::InstrKind> kind; // none: every kind
    int block = -1;                          // -1: every block (barriers have none)
    // Case-insensitive; matches the op's name, the tensor a transfer moves, the mnemonic
    // (op type, transfer path, "wait", "barrier") or the instruction id ("i000123", "123").
    QString search;

    bool operator==(const ListingFilter&) const = default;
};

// What the listing highlights: the instructions of an op, or else of a block.
struct ListingHighlight {
    std::optional<ir::OpId> op;
    int block = -1;

    bool isEmpty() const { return !op && block < 0; }
    bool operator==(const ListingHighlight&) const = default;
};

class ProgramListingModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        IdColumn,
        CoreColumn,
        KindColumn,
        BlockColumn,
        OpColumn,
        TextColumn,
        ColumnCount
    };

    enum Role {
        InstrIdRole = Qt::UserRole, // the instruction's id (uint)
        OpIdRole,                   // its op's index, or -1
        BlockIdRole,                // its block id, or -1
        KindRole,                   // compiler::InstrKind as int
        HighlightedRole,            // bool: part of the highlighted op or block
    };

    explicit ProgramListingModel(QObject* parent = nullptr);

    // Shows `program` of `graph` (null: nothing). Keeps the filter when it still makes sense
    // (a core or block the program no longer has is dropped) and clears the highlight.
    void setProgram(std::shared_ptr<const ir::Graph> graph,
                    std::shared_ptr<const compiler::Program> program);
    const compiler::Program* program() const { return m_program.get(); }
    const ir::Graph* graph() const { return m_graph.get(); }

    void setFilter(ListingFilter filter);
    const ListingFilter& filter() const { return m_filter; }

    void setHighlight(ListingHighlight highlight);
    const ListingHighlight& highlight() const { return m_highlight; }
    bool isHighlighted(int row) const;
    // Rows shown that are highlighted.
    int highlightedCount() const { return m_highlightedCount; }
    // The next highlighted row after `row` (before it when !forward), wrapping; -1 if none.
    int nextHighlighted(int row, bool forward = true) const;

    // Instructions in the program, and rows shown under the filter.
    int instructionCount() const;
    // The row showing instruction `id`, or -1 (filtered out or no such instruction).
    int rowOfInstruction(compiler::InstrId id) const;
    // The instruction on `row`; `row` must be valid.
    const compiler::Instruction& instructionAt(int row) const;
    // Ids of blocks in the program, ascending.
    std::vector<int> blockIds() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "i000123": the id as the assembly writes it.
    static QString idText(compiler::InstrId id);
    // A muted colour per kind, the same in every view of instructions.
    static QColor kindColor(compiler::InstrKind kind);

  private:
    void rebuildRows();
    void countHighlighted();
    const QString& textOf(const compiler::Instruction& in) const;

    std::shared_ptr<const ir::Graph> m_graph;
    std::shared_ptr<const compiler::Program> m_program;
    std::vector<compiler::InstrId> m_order; // every instruction, listing order
    std::vector<compiler::InstrId> m_rows;  // shown ones
    std::vector<int> m_rowOf;               // per instruction id: its row, or -1
    ListingFilter m_filter;
    ListingHighlight m_highlight;
    int m_highlightedCount = 0;

    // Formatting a line costs a few microseconds; a view asks for the same visible rows many
    // times, so keep the last few hundred (direct-mapped by id).
    struct CachedText {
        compiler::InstrId id = ~0u;
        QString text;
    };
    mutable std::array<CachedText, 512> m_textCache;
};

} // namespace strata::views::program
