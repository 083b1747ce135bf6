#include "export/StagedFolder.h"

#include "base/Excerpt.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <set>
#include <vector>

namespace strata::exporting {

namespace fs = std::filesystem;

namespace {

// Whether `target` may be replaced: empty, a previous bundle, or only adopted files.
std::optional<Diagnostic> checkReplaceable(const fs::path& target, const std::string& marker,
                                           const std::vector<std::string>& adopted) {
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(target, ec);
    if (status.type() == fs::file_type::not_found)
        return std::nullopt;
    if (ec)
        return error(
            fmt::format("export: cannot access the folder {}: {}", target.string(), ec.message()));
    if (status.type() == fs::file_type::symlink)
        return error(
            fmt::format("export: {} is a symbolic link; name the folder itself", target.string()));
    if (status.type() != fs::file_type::directory)
        return error(
            fmt::format("export: cannot create the folder {}: a file of that name is in the way",
                        target.string()));
    if (fs::exists(target / marker, ec))
        return std::nullopt;
    const std::set<std::string> mine(adopted.begin(), adopted.end());
    for (const auto& entry : fs::directory_iterator(target, ec))
        if (!mine.count(entry.path().filename().string()))
            return error(fmt::format(
                "export: the folder {} holds '{}' and is not a previous bundle (no {}); "
                "choose an empty or new folder",
                target.string(), excerpt(entry.path().filename().string()), marker));
    if (ec)
        return error(
            fmt::format("export: cannot list the folder {}: {}", target.string(), ec.message()));
    return std::nullopt;
}

// Removes staging folders an earlier export to `target` left behind when it was killed
// (".NAME.partial-*", and ".NAME.partial-*.previous" from a two-rename replace). Exports to one
// folder do not run at the same time, so none of them is in use.
void removeLeftovers(const fs::path& parent, const fs::path& target) {
    const std::string prefix = "." + target.filename().string() + ".partial-";
    std::error_code ec;
    std::vector<fs::path> leftovers;
    for (const auto& entry : fs::directory_iterator(parent, ec))
        if (entry.path().filename().string().starts_with(prefix) && entry.is_directory(ec) &&
            !entry.is_symlink(ec))
            leftovers.push_back(entry.path());
    for (const fs::path& leftover : leftovers)
        fs::remove_all(leftover, ec);
}

} // namespace

Expected<StagedFolder> StagedFolder::begin(const fs::path& target, const std::string& marker,
                                           const std::vector<std::string>& adopted) {
    std::error_code ec;
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    fs::create_directories(parent, ec);
    if (ec || !fs::is_directory(parent))
        return error(fmt::format("export: cannot create the folder {}: {}", target.string(),
                                 ec ? ec.message() : parent.string() + " is not a folder"));
    if (auto refused = checkReplaceable(target, marker, adopted))
        return *refused;
    removeLeftovers(parent, target);

    std::string pattern =
        (parent / ("." + target.filename().string() + ".partial-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        return error(fmt::format("export: cannot create a staging folder beside {}: {}",
                                 target.string(), std::strerror(errno)));
    StagedFolder staged(target, pattern, {});
    for (const std::string& name : adopted) {
        if (!fs::exists(target / name, ec))
            continue;
        fs::rename(target / name, staged.m_staging / name, ec);
        if (ec)
            return error(fmt::format("export: cannot move {} into the staging folder: {}", name,
                                     ec.message()));
        staged.m_adopted.push_back(name);
    }
    return staged;
}

StagedFolder::StagedFolder(StagedFolder&& other) noexcept
    : m_target(std::move(other.m_target)), m_staging(std::move(other.m_staging)),
      m_adopted(std::move(other.m_adopted)), m_done(other.m_done) {
    other.m_done = true;
}

StagedFolder::~StagedFolder() {
    if (m_done)
        return;
    std::error_code ignored;
    for (const std::string& name : m_adopted)
        fs::rename(m_staging / name, m_target / name, ignored);
    fs::remove_all(m_staging, ignored);
}

std::optional<Diagnostic> StagedFolder::commit() {
    std::error_code ec;
    const bool replacing = fs::exists(fs::symlink_status(m_target, ec));
    if (!replacing) {
        fs::rename(m_staging, m_target, ec);
        if (ec)
            return error(fmt::format("export: cannot move the bundle into place at {}: {}",
                                     m_target.string(), ec.message()));
        m_done = true;
        return std::nullopt;
    }
    // One atomic step where the file system allows: the staging folder and the previous
    // bundle change places, then the previous one (now at the staging path) is removed.
    if (::renameat2(AT_FDCWD, m_staging.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) !=
        0) {
        // Two renames: the previous bundle steps aside, the new one comes in, or it goes back.
        const fs::path aside = m_staging.string() + ".previous";
        fs::rename(m_target, aside, ec);
        if (ec)
            return error(
                fmt::format("export: cannot replace {}: {}", m_target.string(), ec.message()));
        fs::rename(m_staging, m_target, ec);
        if (ec) {
            std::error_code ignored;
            fs::rename(aside, m_target, ignored);
            return error(
                fmt::format("export: cannot replace {}: {}", m_target.string(), ec.message()));
        }
        fs::remove_all(aside, ec);
        m_done = true;
        return std::nullopt;
    }
    m_done = true;
    fs::remove_all(m_staging, ec); // the previous bundle
    return std::nullopt;
}

} // namespace strata::exporting
