#pragma once
// The Calibrate Host… window: the calibration's progress lines while it runs, then the
// residuals before and after per transfer path (CalibrationResidualsPlot: measured samples, the
// uncalibrated target's curve and the fit's, with their RMS relative residuals) and the other
// fitted figures; Save Calibrated Target… and Use as Current Target. Not modal: the app stays
// usable.

#include <QDialog>
#include <vector>

class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QWidget;

namespace strata::views::transfers {
class CalibrationResidualsPlot;
}

namespace strata::gui {

class CalibrationController;

class CalibrationDialog : public QDialog {
    Q_OBJECT

  public:
    CalibrationDialog(CalibrationController* controller, QWidget* parent = nullptr);

    // A new calibration started: clears the results.
    void started();

    const std::vector<views::transfers::CalibrationResidualsPlot*>& plots() const {
        return m_plots;
    }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* useButton() const { return m_use; }
    QString figuresText() const; // the line of figures under the plots
    QPlainTextEdit* log() const { return m_log; }

  private:
    void onFinished(bool ok);
    void save();
    void use();

    CalibrationController* m_controller;
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
