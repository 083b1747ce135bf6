#include "base/SafeFiles.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {

namespace {

std::string systemError(int err) {
    return std::strerror(err);
}

const char* kindOf(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

std::string folderOf(const std::string& path) {
    const auto parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

} // namespace

std::optional<Diagnostic> checkReadableFile(const std::string& path, std::string_view what) {
    const Location where{.file = path};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT)
            return error("no such file", where);
        return error("cannot access the " + std::string(what) + ": " + systemError(err), where);
    }
    if (!S_ISREG(st.st_mode))
        return error("is " + std::string(kindOf(st.st_mode)) + ", not a regular " +
                         std::string(what == "file" ? "file" : std::string(what) + " file"),
                     where);
    if (::access(path.c_str(), R_OK) != 0) {
        const int err = errno;
        return error("cannot read the " + std::string(what) + ": " + systemError(err), where);
    }
    return std::nullopt;
}

std::optional<Diagnostic> checkWritableTarget(const std::string& path) {
    const Location where{.file = path};
    if (path.empty())
        return error("no output file named");
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return error("is " + std::string(kindOf(st.st_mode)) +
                             "; only a regular file is replaced by an output",
                         where);
    } else if (const int err = errno; err != ENOENT) {
        return error("cannot access the output file: " + systemError(err), where);
    }
    struct stat folder {};
    const std::string dir = folderOf(path);
    if (::stat(dir.c_str(), &folder) != 0) {
        const int err = errno;
        return error("cannot write into the folder " + dir + ": " + systemError(err), where);
    }
    if (!S_ISDIR(folder.st_mode))
        return error(dir + " is not a folder", where);
    return std::nullopt;
}

std::optional<Diagnostic> writeFileAtomically(const std::string& path,
                                              const std::function<void(std::ostream&)>& write) {
    if (auto refused = checkWritableTarget(path))
        return refused;
    const Location where{.file = path};
    std::string temporary = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) {
        const int err = errno;
        return error("cannot create a temporary file beside the output: " + systemError(err),
                     where);
    }
    // A new file gets the usual permissions rather than mkstemp's 0600.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0) {
    } // the file is still written, with mkstemp's mode
    ::close(fd);
    auto fail = [&](const std::string& what, int err) {
        ::unlink(temporary.c_str());
        return error(what + (err ? ": " + systemError(err) : std::string()), where);
    };
    {
        // Streamed, so a trace of millions of events is never held whole in memory.
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        errno = 0;
        try {
            if (out)
                write(out);
        } catch (...) {
            ::unlink(temporary.c_str());
            throw;
        }
        out.flush();
        if (!out)
            return fail("cannot write the file", errno);
    }
    const int sync = ::open(temporary.c_str(), O_WRONLY | O_CLOEXEC);
    if (sync < 0 || ::fsync(sync) != 0) {
        const int err = errno;
        if (sync >= 0)
            ::close(sync);
        return fail("cannot write the file", err);
    }
    if (::close(sync) != 0)
        return fail("cannot write the file", errno);
    // Checked again just before the rename: the target may have changed meanwhile.
    if (auto refused = checkWritableTarget(path)) {
        ::unlink(temporary.c_str());
        return refused;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        return fail("cannot replace the file", errno);
    return std::nullopt;
}

std::optional<Diagnostic> writeFileAtomically(const std::string& path, std::string_view content) {
    return writeFileAtomically(path, [&](std::ostream& out) {
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    });
}

} // namespace strata
