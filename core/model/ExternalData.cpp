#include "model/ExternalData.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

namespace strata::model {

namespace fs = std::filesystem;

namespace {

// Parses a non-negative decimal integer as onnx writes offsets and lengths.
bool parseSize(const std::string& text, std::uint64_t& value) {
    if (text.empty()) return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

} // namespace

Expected<std::shared_ptr<const MappedFile>> ExternalDataLoader::mapFile(const std::string& location,
                                                                        const Location& where) {
    if (m_baseDir.empty())
        return error("tensor refers to external data '" + location +
                         "', but the model was not loaded from a folder",
                     where);
    if (location.empty()) return error("external data has an empty location", where);
    if (location.find('\0') != std::string::npos)
        return error("external data location contains a NUL byte", where);
    const fs::path relative(location);
    if (relative.is_absolute() || relative.has_root_name() || relative.has_root_directory())
        return error("external data location '" + location +
                         "' is an absolute path; it must be relative to the model's folder",
                     where);
    const fs::path normal = relative.lexically_normal();
    if (normal.empty() || *normal.begin() == ".." || normal == ".")
        return error("external data location '" + location + "' escapes the model's folder",
                     where);

    std::error_code ec;
    const fs::path base = fs::canonical(m_baseDir, ec);
    if (ec) return error("cannot resolve the model's folder '" + m_baseDir + "': " + ec.message(), where);

    // No component between the folder and the file may be a symlink (onnx 1.21 rule).
    fs::path walk = base;
    for (const fs::path& part : normal) {
        walk /= part;
        if (fs::is_symlink(fs::symlink_status(walk, ec)))
            return error("external data location '" + location + "' passes through symlink '" +
                             walk.string() + "'; symlinks are not allowed",
                         where);
    }
    const fs::path full = fs::weakly_canonical(base / normal, ec);
    if (ec) return error("cannot resolve external data location '" + location + "'", where);
    auto [mismatch, unused] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
    (void)unused;
    if (mismatch != base.end())
        return error("external data location '" + location + "' escapes the model's folder",
                     where);
    if (!fs::exists(full, ec))
        return error("external data file '" + location + "' does not exist", where);
    if (!fs::is_regular_file(full, ec))
        return error("external data location '" + location + "' is not a regular file", where);

    const std::string key = full.string();
    if (auto it = m_files.find(key); it != m_files.end()) return it->second;
    auto mapped = MappedFile::open(key);
    if (!mapped) {
        auto d = mapped.diagnostics().front();
        d.where.node = where.node;
        d.where.value = where.value;
        return d;
    }
    m_files.emplace(key, *mapped);
    return *mapped;
}

Expected<ir::TensorData> ExternalDataLoader::load(const onnx::TensorProto& tensor,
                                                  std::uint64_t expectedBytes,
                                                  const Location& where) {
    std::string location;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    bool hasLength = false;
    for (const auto& entry : tensor.external_data()) {
        if (entry.key() == "location") {
            location = entry.value();
        } else if (entry.key() == "offset") {
            if (!parseSize(entry.value(), offset))
                return error("external data offset '" + entry.value() +
                                 "' is not a non-negative integer",
                             where);
        } else if (entry.key() == "length") {
            if (!parseSize(entry.value(), length))
                return error("external data length '" + entry.value() +
                                 "' is not a non-negative integer",
                             where);
            hasLength = true;
        }
    }
    auto file = mapFile(location, where);
    if (!file) return file.takeDiagnostics();
    const std::uint64_t fileSize = (*file)->size();
    if (offset > fileSize)
        return error("external data offset " + std::to_string(offset) + " is past the end of '" +
                         location + "' (" + std::to_string(fileSize) + " bytes)",
                     where);
    if (!hasLength) length = fileSize - offset;
    std::uint64_t end = 0;
    if (__builtin_add_overflow(offset, length, &end) || end > fileSize)
        return error("external data offset " + std::to_string(offset) + " + length " +
                         std::to_string(length) + " exceeds the size of '" + location + "' (" +
                         std::to_string(fileSize) + " bytes)",
                     where);
    if (length != expectedBytes)
        return error("external data length " + std::to_string(length) + " does not match the " +
                         std::to_string(expectedBytes) + " bytes its dims need",
                     where);
    ir::TensorData data;
    data.owner = *file;
    data.data = (*file)->bytes().data() + offset;
    data.size = length;
    return data;
}

} // namespace strata::model
