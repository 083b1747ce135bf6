#include "project/Containment.h"

#include "base/Excerpt.h"

#include <filesystem>

namespace strata::project {

namespace fs = std::filesystem;

namespace {

// Absolute, with symlinks of the existing part resolved and ".." folded.
fs::path resolved(const fs::path& path) {
    std::error_code ec;
    fs::path real = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::absolute(path, ec).lexically_normal() : real;
}

bool isFilePath(const std::string& target) {
    return target.find('/') != std::string::npos ||
           (target.size() > 5 && target.ends_with(".json"));
}

} // namespace

bool isInsideFolder(const std::string& path, const std::string& folder) {
    if (path.empty())
        return true;
    const fs::path base = resolved(folder.empty() ? fs::path(".") : fs::path(folder));
    const fs::path p = fs::path(path).is_absolute() ? fs::path(path) : base / path;
    const fs::path relative = resolved(p).lexically_relative(base);
    return !relative.empty() && *relative.begin() != ".." && !relative.is_absolute();
}

std::vector<Diagnostic> checkContainment(const Project& project, const std::string& projectFile) {
    const std::string folder = fs::path(projectFile).parent_path().string();
    std::vector<Diagnostic> out;
    auto check = [&](const std::string& path, const std::string& field, const char* what) {
        if (isInsideFolder(path, folder))
            return;
        out.push_back(error(std::string(what) + " '" + excerpt(path) +
                                "' lies outside the project's folder; a project may only name "
                                "files inside it",
                            {.file = projectFile, .field = field}));
    };
    check(project.modelPath, "model.path", "the model");
    if (isFilePath(project.target))
        check(project.target, "target", "the target file");
    // Named as the file writes them: runs[r].traces[k].
    std::vector<int> inRun(static_cast<std::size_t>(runCount(project.traces)), 0);
    for (const TraceRef& t : project.traces) {
        const int k = t.run >= 0 ? inRun[static_cast<std::size_t>(t.run)]++ : 0;
        check(t.path, "runs[" + std::to_string(t.run) + "].traces[" + std::to_string(k) + "].path",
              "the trace");
    }
    return out;
}

Expected<Project> loadContainedProject(const std::string& path) {
    auto loaded = loadProjectFile(path);
    if (!loaded)
        return loaded;
    auto outside = checkContainment(*loaded, path);
    if (!outside.empty())
        return outside;
    return loaded;
}

} // namespace strata::project
