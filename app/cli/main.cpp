// strata-cli: Strata's headless front end (inspect, schedule, validate, compile; emulate, run,
// calibrate, compare and export as they land).

#include "AccuracyCommand.h"
#include "CalibrateCommand.h"
#include "CompareCommand.h"
#include "CompileCommand.h"
#include "EmulateCommand.h"
#include "ExitCodes.h"
#include "ExportCommand.h"
#include "InspectCommand.h"
#include "MicrobenchCommand.h"
#include "RunCommand.h"
#include "ScheduleCommand.h"
#include "SearchCommand.h"
#include "ZooCommand.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <system_error>

int main(int argc, char** argv) {
    CLI::App app{"Strata: compiler explorer and profiler for deep-learning accelerators"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "strata-cli 0.1.0");
    int exitCode = strata::cli::kExitOk;
    strata::cli::addInspectCommand(app, exitCode);
    strata::cli::addScheduleCommand(app, exitCode);
    strata::cli::addValidateCommand(app, exitCode);
    strata::cli::addCompileCommand(app, exitCode);
    strata::cli::addEmulateCommand(app, exitCode);
    strata::cli::addMicrobenchCommand(app, exitCode);
    strata::cli::addRunCommand(app, exitCode);
    strata::cli::addCompareCommand(app, exitCode);
    strata::cli::addCalibrateCommand(app, exitCode);
    strata::cli::addExportCommand(app, exitCode);
    strata::cli::addZooCommand(app, exitCode);
    strata::cli::addSearchCommand(app, exitCode);
    strata::cli::addAccuracyCommand(app, exitCode);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? strata::cli::kExitOk : strata::cli::kExitBadInput;
    } catch (const std::bad_alloc&) {
        // The commands estimate their needs up front; this is the last guard, not the plan.
        std::cerr << "error: out of memory; the input needs more memory than this computer "
                     "can give\n";
        return strata::cli::kExitFailed;
    } catch (const std::system_error& e) {
        std::cerr << "error: the system refused a resource: " << e.what() << "\n";
        return strata::cli::kExitFailed;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return strata::cli::kExitFailed;
    }
    return exitCode;
}
