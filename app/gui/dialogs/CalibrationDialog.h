#pragma once
// The Calibrate Host… window: the calibration's progress lines while it runs, then the
// residuals before and after per transfer path (CalibrationResidualsPlot: measured samples, the
// uncalibrated target's curve and the fit's, with their RMS relative residuals) and the other
// fitted figures; Save Calibrated Target… and Use as Current Target. Not modal: the app stays
// usable.

#include "base/Diagnostic.h"
#include "views/transfers/CalibrationResidualsPlot.h"

#include <QDialog>
#include <vector>

class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QWidget;

namespace strata::calibrate {
struct CalibrationReport;
}

namespace strata::gui {

class CalibrationDialog : public QDialog {
    Q_OBJECT

  public:
    explicit CalibrationDialog(QWidget* parent = nullptr);

    // Where Save Calibrated Target… proposes to write.
    void setSuggestedPath(const QString& path) { m_suggestedPath = path; }

    // A new calibration started: clears the results.
    void started();
    void appendProgress(const QString& line);
    // The calibration ended: its report and residuals per path, or why not (`report` null).
    void showOutcome(const calibrate::CalibrationReport* report,
                     const std::vector<views::transfers::PathResiduals>& residuals,
                     const std::vector<Diagnostic>& diagnostics);
    // A save or use asked for failed (`title` names it), or the calibrated target is in use.
    void showError(const QString& title, const QString& error);
    void showInUse(const QString& path);

    const std::vector<views::transfers::CalibrationResidualsPlot*>& plots() const {
        return m_plots;
    }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* useButton() const { return m_use; }
    QString figuresText() const; // the line of figures under the plots
    QPlainTextEdit* log() const { return m_log; }

  signals:
    void cancelRequested();
    void saveRequested(const QString& path);
    void useRequested();

  private:
    void save();

    QString m_suggestedPath;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QWidget* m_results = nullptr;
    QGridLayout* m_grid = nullptr;
    QLabel* m_figures = nullptr;
    std::vector<views::transfers::CalibrationResidualsPlot*> m_plots;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_use = nullptr;
};

} // namespace strata::gui
