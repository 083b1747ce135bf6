#include "base/MappedFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
    Location where;
    where.file = path;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; the
    // fstat below then refuses it like any other file that is not regular.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return error(std::string("cannot open file: ") + std::strerror(errno), where);

    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return error(std::string("cannot stat file: ") + std::strerror(err), where);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return error(S_ISDIR(st.st_mode)    ? "is a directory, not a regular file"
                     : S_ISFIFO(st.st_mode) ? "is a FIFO (named pipe), not a regular file"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                         ? "is a device, not a regular file"
                         : "not a regular file",
                     where);
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    const std::byte* data = nullptr;
    if (size > 0) {
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno;
            ::close(fd);
            return error(std::string("cannot map file: ") + std::strerror(err), where);
        }
        data = static_cast<const std::byte*>(p);
    }
    ::close(fd);
    return std::shared_ptr<const MappedFile>(new MappedFile(path, data, size));
}

MappedFile::~MappedFile() {
    if (m_data) ::munmap(const_cast<std::byte*>(m_data), m_size);
}

} // namespace strata
