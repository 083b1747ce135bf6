#pragma once

namespace strata::cli {

// Process exit codes shared by every command.
enum ExitCode : int {
    kExitOk = 0,
    kExitFailed = 1,   // the work itself failed
    kExitBadInput = 2, // bad usage or bad input; a diagnostic is on stderr
};

} // namespace strata::cli
