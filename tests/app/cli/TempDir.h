#pragma once
// A uniquely named directory under the system temp dir, removed with its contents on destruction.

#include <filesystem>
#include <string>
#include <string_view>

namespace strata::cli::test {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }

    // Writes `bytes` to `name` inside the directory and returns the file's path.
    std::filesystem::path writeFile(const std::string& name, std::string_view bytes) const;

private:
    std::filesystem::path m_path;
};

} // namespace strata::cli::test
