#include "CliRunner.h"

#include "TempDir.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace strata::cli::test {

namespace {

struct Pipe {
    int read = -1;
    int write = -1;
};

Pipe makePipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    return {fds[0], fds[1]};
}

// Reads both pipes until each reaches EOF, with poll so a full stderr cannot block stdout.
void drain(int outFd, int errFd, std::string& out, std::string& err) {
    std::array<pollfd, 2> fds{pollfd{outFd, POLLIN, 0}, pollfd{errFd, POLLIN, 0}};
    std::array<std::string*, 2> sinks{&out, &err};
    int open = 2;
    char buf[4096];
    while (open > 0) {
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("poll failed");
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, std::size_t(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
}

// One empty config directory for the whole test process, removed at exit.
const std::string& emptyConfigDir() {
    static const TempDir dir;
    static const std::string path = dir.path().string();
    return path;
}

} // namespace

CliResult runCli(const std::vector<std::string>& args, const CliEnv& env) {
    CliEnv childEnv{{"XDG_CONFIG_HOME", emptyConfigDir()}, {"STRATA_NO_CALIBRATE", "1"}};
    childEnv.insert(childEnv.end(), env.begin(), env.end());
    std::vector<std::string> argv{STRATA_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargs;
    for (auto& a : argv) cargs.push_back(a.data());
    cargs.push_back(nullptr);

    const Pipe out = makePipe();
    const Pipe err = makePipe();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        for (const auto& [name, value] : childEnv) {
            if (value.empty())
                ::unsetenv(name.c_str());
            else
                ::setenv(name.c_str(), value.c_str(), 1);
        }
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull < 0 || ::dup2(devNull, 0) < 0 || ::dup2(out.write, 1) < 0 || ::dup2(err.write, 2) < 0)
            ::_exit(127);
        ::execv(cargs[0], cargs.data());
        ::_exit(127);
    }
    ::close(out.write);
    ::close(err.write);

    CliResult result;
    drain(out.read, err.read, result.out, result.err);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error("waitpid failed");
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

testing::AssertionResult containsText(const std::string& haystack, const std::string& needle) {
    if (haystack.find(needle) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "\"" << needle << "\" not found in:\n" << haystack;
}

std::string samplePath(const std::string& file) { return std::string(STRATA_SAMPLES_DIR) + "/" + file; }

} // namespace strata::cli::test
