#pragma once
// Reading and writing user-named files without hanging or damaging anything: a reader refuses a
// FIFO, a device or a directory before opening it (opening a FIFO blocks until a writer comes);
// a writer writes a temporary beside the target and renames it into place only when the target
// is a regular file or absent, so a device, FIFO or symlink named as output is never replaced.

#include "base/Expected.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace strata {

// An error when `path` is missing, unreadable, or not a regular file (directory, FIFO, socket,
// device); nullopt when it may be opened and read. `what` names the file in the message
// ("model", "trace").
std::optional<Diagnostic> checkReadableFile(const std::string& path,
                                            std::string_view what = "file");

// An error when `path` exists and is not a regular file (or is a symlink), or when its folder
// does not exist; nullopt when writeFileAtomically may replace or create it.
std::optional<Diagnostic> checkWritableTarget(const std::string& path);

// Writes `path` whole: `write` fills a temporary in the same folder, which is flushed, synced
// and renamed over `path`. Refuses targets checkWritableTarget refuses. On failure the target is
// unchanged, the temporary removed, and the error names the system's reason.
std::optional<Diagnostic> writeFileAtomically(const std::string& path,
                                              const std::function<void(std::ostream&)>& write);
std::optional<Diagnostic> writeFileAtomically(const std::string& path, std::string_view content);

} // namespace strata
