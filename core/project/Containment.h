#pragma once
// Project containment: a project file is data someone may hand over, so the files it names
// (the model, a target file, saved traces) must lie inside the project's folder. A path that
// leaves it ("../../etc/shadow", "/etc/passwd", a symlink pointing out) is refused with a
// diagnostic naming the field; the app may ask the user before opening it anyway.

#include "base/Expected.h"
#include "project/Project.h"

#include <string>
#include <vector>

namespace strata::project {

// True when `path` (absolute, or relative to `folder`) lies inside `folder` once ".." and
// symlinks are resolved (as far as the path exists).
bool isInsideFolder(const std::string& path, const std::string& folder);

// One error per path of `project` outside the folder of `projectFile`: "model.path",
// "target" (when it is a file) and "traces[i].path".
std::vector<Diagnostic> checkContainment(const Project& project, const std::string& projectFile);

// loadProjectFile, then checkContainment: a project naming files outside its folder is refused.
Expected<Project> loadContainedProject(const std::string& path);

} // namespace strata::project
