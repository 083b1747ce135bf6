#include "shell/UnsavedChanges.h"

#include "controllers/ProjectController.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>
#include <QWidget>

namespace strata::gui {

UnsavedChanges::UnsavedChanges(QWidget* window, QUndoStack* stack, ProjectController* project)
    : QObject(window), m_window(window), m_stack(stack), m_project(project) {
    m_prompt = [window](const QString& name) {
        const auto answer = QMessageBox::warning(
            window, tr("Unsaved Changes"),
            tr("The schedule of %1 has changes that are not saved.\n\nSave them as a project "
               "before closing?")
                .arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Save)
            return Answer::Save;
        return answer == QMessageBox::Discard ? Answer::Discard : Answer::Cancel;
    };
    connect(m_stack, &QUndoStack::cleanChanged, this, &UnsavedChanges::updateTitle);
    connect(m_project, &ProjectController::saved, this, [this] {
        m_stack->setClean();
        updateTitle();
    });
    connect(m_project, &ProjectController::pathChanged, this, &UnsavedChanges::updateTitle);
    updateTitle();
}

void UnsavedChanges::setModelPath(const QString& path) {
    m_modelPath = path;
    updateTitle();
}

bool UnsavedChanges::isModified() const {
    return !m_modelPath.isEmpty() && !m_stack->isClean();
}

QString UnsavedChanges::documentName() const {
    const QString project = m_project->projectPath();
    return QFileInfo(project.isEmpty() ? m_modelPath : project).fileName();
}

bool UnsavedChanges::confirmClose() {
    if (!isModified())
        return true;
    switch (m_prompt(documentName())) {
    case Answer::Save:
        return m_project->save();
    case Answer::Discard:
        return true;
    case Answer::Cancel:
        break;
    }
    return false;
}

void UnsavedChanges::updateTitle() {
    const QString name = documentName();
    m_window->setWindowTitle(name.isEmpty() ? QStringLiteral("Strata")
                                            : QStringLiteral("Strata \u2014 %1[*]").arg(name));
    m_window->setWindowModified(isModified());
}

} // namespace strata::gui
