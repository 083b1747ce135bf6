#pragma once
// The app without a user (--screenshot, --export; docs in main.cpp): opens the
// model or project, waits until the window's background jobs settle, runs what
// the tab needs (a compile, an emulation, a run on this computer), writes the
// export bundle and renders the window. Returns the exit code: 0 when the model
// loaded (and the export worked), 1 when not (the reason on stderr),
// kUsageError for bad input (a project naming files outside its folder, an
// unknown
// --select).

namespace strata::gui {

class MainWindow;
struct AppArguments;

int runHeadless(MainWindow& window, const AppArguments& args);

} // namespace strata::gui
