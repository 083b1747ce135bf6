#include "panels/ScheduleToolBar.h"

#include "target/CalibratedHost.h"
#include "target/Presets.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSignalBlocker>
#include <QUndoStack>
#include <filesystem>

namespace strata::gui {

namespace {

// Item data of the "Open target file…" entry (real entries hold a preset name or a path).
const QString kOpenFileEntry = QStringLiteral("\x01open");

QLabel* caption(const QString& text) {
    auto* label = new QLabel(text);
    label->setContentsMargins(8, 0, 4, 0);
    return label;
}

} // namespace

ScheduleToolBar::ScheduleToolBar(QWidget* parent) : QToolBar(tr("Schedule"), parent) {
    setObjectName(QStringLiteral("scheduleToolBar"));
    setMovable(false);

    m_target = new QComboBox;
    m_target->setObjectName(QStringLiteral("targetSelector"));
    m_target->setToolTip(tr("The machine to schedule for"));
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const std::string& name : target::presetNames()) {
        const QString key = QString::fromStdString(name);
        m_target->addItem(key, key);
    }
    m_target->insertSeparator(m_target->count());
    m_target->addItem(tr("Open target file\u2026"), kOpenFileEntry);
    refreshHostEntry();
    connect(m_target, &QComboBox::activated, this, &ScheduleToolBar::onTargetActivated);

    m_strategy = new QComboBox;
    m_strategy->setObjectName(QStringLiteral("strategySelector"));
    m_strategy->setToolTip(tr("How the starting schedule is made:\n"
                              "per-op: one op per block\n"
                              "rules: a conv or matmul with its elementwise epilogue\n"
                              "fuse-max: as much as the working memory allows"));
    for (auto s :
         {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
        const std::string_view name = schedule::strategyName(s);
        m_strategy->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                            static_cast<int>(s));
    }
    connect(m_strategy, &QComboBox::activated, this, [this](int index) {
        emit strategyRequested(
            static_cast<schedule::Strategy>(m_strategy->itemData(index).toInt()));
    });

    addWidget(caption(tr("Target")));
    addWidget(m_target);
    addWidget(caption(tr("Strategy")));
    addWidget(m_strategy);
    addSeparator();
}

int ScheduleToolBar::indexOfTarget(const QString& key) const {
    for (int i = 0; i < m_target->count(); ++i)
        if (m_target->itemData(i).toString() == key)
            return i;
    return -1;
}

void ScheduleToolBar::addUndoRedo(QUndoStack* stack) {
    QAction* undo = addAction(tr("Undo"), stack, &QUndoStack::undo);
    undo->setObjectName(QStringLiteral("toolBarUndo"));
    QAction* redo = addAction(tr("Redo"), stack, &QUndoStack::redo);
    redo->setObjectName(QStringLiteral("toolBarRedo"));
    auto update = [stack, undo, redo] {
        undo->setEnabled(stack->canUndo());
        redo->setEnabled(stack->canRedo());
        undo->setToolTip(stack->canUndo() ? tr("Undo %1 (Ctrl+Z)").arg(stack->undoText())
                                          : tr("Nothing to undo"));
        redo->setToolTip(stack->canRedo() ? tr("Redo %1 (Ctrl+Shift+Z)").arg(stack->redoText())
                                          : tr("Nothing to redo"));
    };
    connect(stack, &QUndoStack::indexChanged, this, update);
    connect(stack, &QUndoStack::canUndoChanged, this, update);
    connect(stack, &QUndoStack::canRedoChanged, this, update);
    update();
}

void ScheduleToolBar::refreshHostEntry() {
    // `host` resolves to the calibrated file when it exists (target::userResolveOptions()).
    const int host = indexOfTarget(QStringLiteral("host"));
    if (host < 0)
        return;
    const std::string file = target::defaultCalibratedHostFile();
    std::error_code error;
    const bool calibrated = !file.empty() && std::filesystem::is_regular_file(file, error);
    m_target->setItemText(host, calibrated ? tr("host (calibrated)") : QStringLiteral("host"));
    m_target->setItemData(
        host,
        calibrated ? tr("This computer, calibrated: %1").arg(QString::fromStdString(file))
                   : tr("This computer, the uncalibrated preset (Calibrate Host measures it)"),
        Qt::ToolTipRole);
    const QString uncalibrated = QString::fromUtf8(
        target::kUncalibratedHost.data(), static_cast<qsizetype>(target::kUncalibratedHost.size()));
    if (calibrated && indexOfTarget(uncalibrated) < 0) {
        m_target->insertItem(host + 1, uncalibrated, uncalibrated);
        m_target->setItemData(host + 1, tr("This computer, the preset's figures"), Qt::ToolTipRole);
    }
}

void ScheduleToolBar::showTarget(const QString& key) {
    const QSignalBlocker blocker(m_target);
    refreshHostEntry(); // Calibrate Host may have written the file since
    int index = indexOfTarget(key);
    if (index < 0 && !key.isEmpty()) {
        // A target file: listed by its file name above the separator, the path in the tooltip.
        index = m_target->count() - 2;
        m_target->insertItem(index, QFileInfo(key).fileName(), key);
        m_target->setItemData(index, key, Qt::ToolTipRole);
    }
    m_target->setCurrentIndex(index);
    m_shownTarget = key;
}

void ScheduleToolBar::showStrategy(schedule::Strategy strategy) {
    const QSignalBlocker blocker(m_strategy);
    m_strategy->setCurrentIndex(m_strategy->findData(static_cast<int>(strategy)));
}

void ScheduleToolBar::onTargetActivated(int index) {
    const QString key = m_target->itemData(index).toString();
    if (key == kOpenFileEntry) {
        openTargetFile();
        return;
    }
    if (key != m_shownTarget)
        emit targetRequested(key);
}

void ScheduleToolBar::openTargetFile() {
    // Until the document says otherwise, the selector shows the target in use.
    showTarget(m_shownTarget);
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Target Description"), QString(),
                                     tr("Target descriptions (*.json);;All files (*)"));
    if (!path.isEmpty())
        emit targetRequested(path);
}

} // namespace strata::gui
