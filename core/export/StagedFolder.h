#pragma once
// A folder written whole: files go into a hidden staging folder beside the target, and commit()
// puts it in the target's place in one step (an atomic exchange where the file system offers
// one), so a reader sees the previous bundle or the new one, never a mix; an export killed
// half-way leaves the previous bundle as it was and a staging folder named ".NAME.partial-*",
// which the next export to the same target removes.
//
// A target that exists must look like what it replaces: a folder holding a previous bundle
// (`marker` in it), nothing, or only the files the caller hands over (`adopted`: the plots the
// views drew into it). Anything else is refused, so an export never deletes a user's folder.

#include "base/Expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace strata::exporting {

class StagedFolder {
  public:
    // Makes the staging folder beside `target` (and `target`'s parent folders), moving the
    // `adopted` files that exist in `target` into it; first removes the staging folders of
    // earlier exports to `target` that were killed.
    static Expected<StagedFolder> begin(const std::filesystem::path& target,
                                        const std::string& marker,
                                        const std::vector<std::string>& adopted);

    StagedFolder(StagedFolder&& other) noexcept;
    StagedFolder& operator=(StagedFolder&&) = delete;
    StagedFolder(const StagedFolder&) = delete;
    ~StagedFolder(); // not committed: the adopted files go back, the staging folder is removed

    const std::filesystem::path& path() const { return m_staging; }

    // Replaces `target` with the staging folder; the previous one is removed afterwards.
    // On failure `target` is as it was.
    std::optional<Diagnostic> commit();

  private:
    StagedFolder(std::filesystem::path target, std::filesystem::path staging,
                 std::vector<std::string> adopted)
        : m_target(std::move(target)), m_staging(std::move(staging)),
          m_adopted(std::move(adopted)) {}

    std::filesystem::path m_target;
    std::filesystem::path m_staging;
    std::vector<std::string> m_adopted; // moved in from target, to be moved back on failure
    bool m_done = false;
};

} // namespace strata::exporting
