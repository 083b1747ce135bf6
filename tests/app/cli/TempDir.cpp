#include "TempDir.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>

namespace strata::cli::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    static std::atomic<unsigned> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    for (int attempt = 0; attempt < 100; ++attempt) {
        fs::path candidate = fs::temp_directory_path() /
                             ("strata_cli_tests_" + std::to_string(::getpid()) + "_" + std::to_string(stamp) +
                              "_" + std::to_string(counter++));
        if (fs::create_directory(candidate)) {
            m_path = std::move(candidate);
            return;
        }
    }
    throw std::runtime_error("could not create a temp directory");
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec); // best effort; a leftover temp dir must not fail a test
}

fs::path TempDir::writeFile(const std::string& name, std::string_view bytes) const {
    const fs::path file = m_path / name;
    std::ofstream stream(file, std::ios::binary);
    stream.write(bytes.data(), std::streamsize(bytes.size()));
    if (!stream) throw std::runtime_error("could not write " + file.string());
    return file;
}

} // namespace strata::cli::test
