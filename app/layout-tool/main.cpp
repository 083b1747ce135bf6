// strata-layout: reads a layout request (JSON, core/layout/LayoutProtocol.h) on stdin, lays it
// out with Graphviz dot and writes the reply (the layout, or why there is none) on stdout.
// Exit status: 0 when a reply was written (even one that reports a failed layout), 2 when the
// request could not be read, 1 when stdout could not be written.
// The strata GUI starts it for every layout so that it can kill a layout that takes too long.

#include "layout/DotLayout.h"
#include "layout/LayoutProtocol.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <iterator>
#include <string>

namespace {

constexpr int kOk = 0;
constexpr int kWriteFailed = 1;
constexpr int kBadRequest = 2;

// Requests are a few MB at most; a larger input is not one of ours.
constexpr std::size_t kMaxRequestBytes = 256u << 20;

bool writeReply(const std::string& reply) {
    std::cout << reply << '\n';
    std::cout.flush();
    return static_cast<bool>(std::cout);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) {
        std::cerr << "usage: " << argv[0] << " < request.json > layout.json\n"
                  << "Lays out a Strata layout request with Graphviz dot.\n";
        return std::string(argv[1]) == "--help" ? kOk : kBadRequest;
    }
    std::ios::sync_with_stdio(false);
    try {
        std::string text;
        char buffer[1 << 16];
        while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
            text.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
            if (text.size() > kMaxRequestBytes) {
                writeReply(strata::layout::encodeLayout(
                    strata::error("the layout request is larger than 256 MiB")));
                return kBadRequest;
            }
        }
        auto request = strata::layout::decodeRequest(text);
        if (!request) {
            writeReply(strata::layout::encodeLayout(request.takeDiagnostics()));
            return kBadRequest;
        }
        const auto layout = strata::layout::layoutWithDot(*request);
        return writeReply(strata::layout::encodeLayout(layout)) ? kOk : kWriteFailed;
    } catch (const std::exception& e) {
        // Out of memory in a huge request: still answer in the protocol.
        writeReply(strata::layout::encodeLayout(
            strata::error(std::string("the layout helper failed: ") + e.what())));
        return kBadRequest;
    }
}
