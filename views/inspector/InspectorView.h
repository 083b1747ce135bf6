#pragma once
// The Inspector's property list: one bold row per section with its properties beneath, name and
// value side by side. A value that does not fit is elided; its tooltip holds the whole text.

#include "views/inspector/InspectorSections.h"

#include <QTreeWidget>
#include <vector>

namespace strata::views::inspector {

class InspectorView : public QTreeWidget {
    Q_OBJECT

  public:
    enum Column { NameColumn, ValueColumn };

    explicit InspectorView(QWidget* parent = nullptr);

    // Replaces what is shown; sections start expanded.
    void setSections(const std::vector<Section>& sections);
    // The value of property `name` in section `section`, or a null string (for tests and links).
    QString value(const QString& section, const QString& name) const;

  private:
    static constexpr int kMinNameWidth = 120;
};

} // namespace strata::views::inspector
