#pragma once
// A read-only memory mapping of a whole file. Large weights are referenced from the mapping
// instead of being copied.

#include "base/Expected.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace strata {

class MappedFile {
  public:
    // Maps `path` read-only. Empty files map to an empty span. Fails with a diagnostic when the
    // file is missing, not a regular file, or cannot be mapped.
    static Expected<std::shared_ptr<const MappedFile>> open(const std::string& path);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const std::byte> bytes() const { return {m_data, m_size}; }
    std::size_t size() const { return m_size; }
    const std::string& path() const { return m_path; }

  private:
    MappedFile(std::string path, const std::byte* data, std::size_t size)
        : m_path(std::move(path)), m_data(data), m_size(size) {}

    std::string m_path;
    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace strata
