#pragma once
// The window's title and its unsaved mark, and what closing with unsaved edits asks. The
// schedule's undo stack is clean at the state last saved or opened (a model, a project): any
// other state is an unsaved change. The title names the project, or the model before one is
// saved: "Strata — resnet.strata[*]", where Qt draws [*] as the unsaved mark.

#include <QObject>
#include <QString>
#include <functional>

class QUndoStack;
class QWidget;

namespace strata::gui {

class ProjectController;

class UnsavedChanges : public QObject {
    Q_OBJECT

  public:
    enum class Answer { Save, Discard, Cancel };
    // Asks what to do with the unsaved changes of the document called `name`.
    using Prompt = std::function<Answer(const QString& name)>;

    // `window` gets the title; `stack` is the schedule's undo stack.
    UnsavedChanges(QWidget* window, QUndoStack* stack, ProjectController* project);

    // A model was opened (the title names it until a project is opened or saved).
    void setModelPath(const QString& path);
    bool isModified() const;
    // The project's or the model's file name; empty with nothing open.
    QString documentName() const;

    // Before closing: true when the window may close (nothing unsaved, saved, or discarded),
    // false when the user cancelled or the save did not happen.
    bool confirmClose();
    // Replaces the question (a message box with Save / Discard / Cancel); for tests.
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }

  private:
    void updateTitle();

    QWidget* m_window;
    QUndoStack* m_stack;
    ProjectController* m_project;
    QString m_modelPath;
    Prompt m_prompt;
};

} // namespace strata::gui
