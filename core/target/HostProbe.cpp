#include "target/HostProbe.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace strata::target {

namespace {

namespace fs = std::filesystem;

// Used when sysfs has no L2 entry (some VMs, containers without /sys).
constexpr std::uint64_t kFallbackL2Bytes = 1ull << 20;

// At most this much of the last-level cache counts per core. A VM lists only its own CPUs as
// sharing the socket's L3 (one cloud VM of 2 vCPUs saw 260 MiB), though other tenants use it too;
// tiles of 16 MiB already gained nearly all there was to gain over 4 MiB ones (docs/TARGETS.md).
constexpr std::uint64_t kMaxLastLevelShare = 16ull << 20;

std::optional<std::string> readFirstLine(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data())
        return std::nullopt;
    return value;
}

// "0-3,8-11" -> 8. Returns nullopt for anything it cannot read.
std::optional<int> countCpuList(std::string_view list) {
    int count = 0;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view range = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        const std::size_t dash = range.find('-');
        auto first = parseUnsigned(range.substr(0, dash));
        auto last = dash == std::string_view::npos ? first : parseUnsigned(range.substr(dash + 1));
        if (!first || !last || *last < *first)
            return std::nullopt;
        count += static_cast<int>(*last - *first + 1);
    }
    return count > 0 ? std::optional<int>(count) : std::nullopt;
}

// sysfs cache sizes: "2048K", "32M", or plain bytes.
std::optional<std::uint64_t> parseCacheSize(std::string_view text) {
    std::uint64_t multiplier = 1;
    if (!text.empty()) {
        switch (text.back()) {
        case 'K':
            multiplier = 1ull << 10;
            break;
        case 'M':
            multiplier = 1ull << 20;
            break;
        case 'G':
            multiplier = 1ull << 30;
            break;
        default:
            break;
        }
        if (multiplier != 1)
            text.remove_suffix(1);
    }
    auto value = parseUnsigned(text);
    if (!value || *value == 0)
        return std::nullopt;
    return *value * multiplier;
}

std::string formatBytes(std::uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text,
                  value == static_cast<std::uint64_t>(value) ? "%.0f %s" : "%.1f %s", value,
                  units[unit]);
    return text;
}

std::string formatHz(double hz) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GHz", hz / 1e9);
    return text;
}

void probeCpus(const fs::path& root, HostFacts& facts) {
    if (auto online = readFirstLine(root / "sys/devices/system/cpu/online")) {
        if (auto count = countCpuList(*online)) {
            facts.cpus = *count;
            facts.notes.push_back(std::to_string(*count) + " online CPUs (sysfs cpu/online)");
            return;
        }
    }
    const long count = ::sysconf(_SC_NPROCESSORS_ONLN);
    facts.cpus = count > 0 ? static_cast<int>(count) : 1;
    facts.notes.push_back(count > 0 ? std::to_string(count) + " online CPUs (sysconf)"
                                    : "CPU count unknown; assumed 1");
}

// One data or unified cache of cpu0 as sysfs lists it.
struct CacheLevel {
    int level = 0;
    std::uint64_t bytes = 0;
    int sharers = 1;                         // CPUs sharing it
    const char* source = "sysfs cpu0 cache"; // where the figure came from, for the notes

    std::uint64_t perCore() const { return bytes / static_cast<std::uint64_t>(sharers); }
    // "L3 32 MiB shared by 2 CPUs"
    std::string describe() const {
        return "L" + std::to_string(level) + " " + formatBytes(bytes) + " shared by " +
               std::to_string(sharers) + (sharers == 1 ? " CPU" : " CPUs");
    }
};

// cpu0's data and unified caches with a readable level and size (instruction caches left out).
std::vector<CacheLevel> listCaches(const fs::path& root) {
    std::vector<CacheLevel> caches;
    std::error_code ec;
    for (const auto& entry :
         fs::directory_iterator(root / "sys/devices/system/cpu/cpu0/cache", ec)) {
        if (!entry.path().filename().string().starts_with("index"))
            continue;
        if (readFirstLine(entry.path() / "type") == "Instruction")
            continue;
        const auto levelText = readFirstLine(entry.path() / "level");
        const auto level = levelText ? parseUnsigned(*levelText) : std::nullopt;
        const auto size = readFirstLine(entry.path() / "size");
        const auto bytes = size ? parseCacheSize(*size) : std::nullopt;
        if (!level || !bytes)
            continue;
        const auto shared = readFirstLine(entry.path() / "shared_cpu_list");
        caches.push_back({.level = static_cast<int>(*level),
                          .bytes = *bytes,
                          .sharers = shared ? countCpuList(*shared).value_or(1) : 1});
    }
    return caches;
}

// The caches the processor itself reports (CPUID, as glibc's sysconf reads it), for machines whose
// sysfs lists none: some VMs, containers without /sys. Who shares a cache is not reported there, so
// an L2 counts as the core's own and a larger cache as shared by every online CPU, a VM's listing
// of its socket's whole L3 included (its share is capped like sysfs's).
std::vector<CacheLevel> cachesReportedByProcessor(const CacheSizeQuery& query, int cpus) {
    std::vector<CacheLevel> caches;
    for (int level = 2; level <= 4; ++level)
        if (const std::uint64_t bytes = query(level); bytes > 0)
            caches.push_back({.level = level,
                              .bytes = bytes,
                              .sharers = level == 2 ? 1 : std::max(cpus, 1),
                              .source = "reported by the processor; sysfs lists no caches"});
    return caches;
}

void probeL2(const std::vector<CacheLevel>& caches, HostFacts& facts) {
    for (const CacheLevel& cache : caches) {
        if (cache.level != 2)
            continue;
        facts.l2BytesPerCore = cache.perCore();
        facts.notes.push_back(cache.describe() + ", " + formatBytes(facts.l2BytesPerCore) +
                              " per core (" + cache.source + ")");
        return;
    }
    facts.l2BytesPerCore = kFallbackL2Bytes;
    facts.notes.push_back("no L2 cache listed in sysfs or by the processor; assumed " +
                          formatBytes(kFallbackL2Bytes) + " per core");
}

// The outermost cache beyond L2 (an L3, or an L4 where there is one). A tile in scratch stays
// cache-resident while it fits the core's L2 plus its share of this cache, so that sum, not the
// L2 alone, is the scratch capacity: tiles sized to the L2 were so small that ResNet-50 reloaded
// each conv's weights per tile and spent as long reordering inputs as convolving them.
void probeLastLevelCache(const std::vector<CacheLevel>& caches, HostFacts& facts) {
    const CacheLevel* last = nullptr;
    for (const CacheLevel& cache : caches)
        if (cache.level > 2 && (!last || cache.level > last->level))
            last = &cache;
    if (!last) {
        facts.notes.push_back("no cache beyond L2 listed in sysfs or by the processor");
        return;
    }
    const std::uint64_t share = last->perCore();
    facts.lastLevelBytesPerCore = std::min(share, kMaxLastLevelShare);
    // Counted as its sharers' counted shares: a VM's listing of its socket's whole cache neither.
    facts.lastLevelBytes = facts.lastLevelBytesPerCore * static_cast<std::uint64_t>(last->sharers);
    facts.notes.push_back(last->describe() + ", " + formatBytes(share) + " per core" +
                          (share > kMaxLastLevelShare
                               ? ", counted as " + formatBytes(kMaxLastLevelShare)
                               : std::string()) +
                          " (" + last->source + ")");
}

void probeMemory(const fs::path& root, HostFacts& facts) {
    std::ifstream meminfo(root / "proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (!line.starts_with("MemTotal:"))
            continue;
        std::istringstream fields(line.substr(9));
        std::uint64_t kib = 0;
        if (fields >> kib && kib > 0) {
            facts.memoryBytes = kib * 1024;
            facts.notes.push_back("memory " + formatBytes(facts.memoryBytes) + " (/proc/meminfo)");
            return;
        }
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0) {
        facts.memoryBytes =
            static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
        facts.notes.push_back("memory " + formatBytes(facts.memoryBytes) + " (sysconf)");
        return;
    }
    facts.memoryBytes = 1ull << 30;
    facts.notes.push_back("memory size unknown; assumed 1 GiB");
}

// The CPU's name, so a calibration can tell whether it was made on this kind of machine. x86
// lists "model name"; some ARM kernels "Processor" or nothing (then "unknown").
void probeCpuModel(const fs::path& root, HostFacts& facts) {
    std::ifstream cpuinfo(root / "proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (!line.starts_with("model name") && !line.starts_with("Processor") &&
            !line.starts_with("cpu model"))
            continue;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const std::size_t first = line.find_first_not_of(" \t", colon + 1);
        if (first == std::string::npos)
            continue;
        facts.cpuModel = line.substr(first);
        return;
    }
}

void probeClock(const fs::path& root, HostFacts& facts) {
    if (auto khz = readFirstLine(root / "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")) {
        if (auto value = parseUnsigned(*khz); value && *value > 0) {
            facts.maxClockHz = static_cast<double>(*value) * 1e3;
            facts.notes.push_back("max clock " + formatHz(facts.maxClockHz) + " (cpufreq)");
            return;
        }
    }
    // Without cpufreq (VMs), "cpu MHz" is the current clock, the best figure left.
    std::ifstream cpuinfo(root / "proc/cpuinfo");
    std::string line;
    double maxMhz = 0;
    while (std::getline(cpuinfo, line)) {
        if (!line.starts_with("cpu MHz"))
            continue;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        try {
            maxMhz = std::max(maxMhz, std::stod(line.substr(colon + 1)));
        } catch (const std::exception&) {
            // An unreadable line is skipped; the other CPUs' lines still count.
        }
    }
    if (maxMhz > 0) {
        facts.maxClockHz = maxMhz * 1e6;
        facts.notes.push_back("clock " + formatHz(facts.maxClockHz) +
                              " (highest 'cpu MHz' in /proc/cpuinfo; no cpufreq maximum)");
        return;
    }
    facts.notes.push_back("clock unknown (no cpufreq, no 'cpu MHz'); kept the file's clock_hz");
}

// The widest float vector the CPU has, from /proc/cpuinfo's flags (x86 "flags", ARM
// "Features"): oneDNN's f32 kernels compute 16 output channels at once with AVX-512, 8 with AVX2.
void probeVectorWidth(const fs::path& root, HostFacts& facts) {
    std::ifstream cpuinfo(root / "proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        const std::size_t colon = line.find(':');
        if ((!line.starts_with("flags") && !line.starts_with("Features")) ||
            colon == std::string::npos)
            continue;
        std::istringstream words(line.substr(colon + 1));
        bool avx512 = false, avx2 = false, narrow = false;
        for (std::string word; words >> word;) {
            avx512 = avx512 || word == "avx512f";
            avx2 = avx2 || word == "avx2";
            narrow = narrow || word == "sse2" || word == "asimd" || word == "neon";
        }
        facts.vectorFloats = avx512 ? 16 : avx2 ? 8 : narrow ? 4 : 1;
        const char* isa = avx512   ? "AVX-512"
                          : avx2   ? "AVX2"
                          : narrow ? "SSE2/NEON"
                                   : "no known SIMD";
        facts.notes.push_back(std::to_string(facts.vectorFloats) + " floats per vector (" + isa +
                              ", /proc/cpuinfo flags)");
        return;
    }
    facts.notes.push_back("vector width unknown (no cpuinfo flags); assumed 1 float");
}

void appendNote(std::string& note, const std::string& text) {
    if (!note.empty())
        note += "; ";
    note += text;
}

} // namespace

std::uint64_t processorCacheBytes(int level) {
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE) &&                            \
    defined(_SC_LEVEL4_CACHE_SIZE)
    const int name = level == 2   ? _SC_LEVEL2_CACHE_SIZE
                     : level == 3 ? _SC_LEVEL3_CACHE_SIZE
                     : level == 4 ? _SC_LEVEL4_CACHE_SIZE
                                  : -1;
    const long bytes = name < 0 ? -1 : ::sysconf(name);
    return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
#else
    (void)level; // a C library without glibc's cache queries: nothing reported
    return 0;
#endif
}

HostFacts probeHost(const std::filesystem::path& root, const CacheSizeQuery& processorCaches) {
    HostFacts facts;
    probeCpus(root, facts);
    probeCpuModel(root, facts);
    std::vector<CacheLevel> caches = listCaches(root);
    if (caches.empty() && processorCaches)
        caches = cachesReportedByProcessor(processorCaches, facts.cpus);
    probeL2(caches, facts);
    probeMemory(root, facts);
    probeClock(root, facts);
    probeVectorWidth(root, facts);
    probeLastLevelCache(caches, facts);
    return facts;
}

void applyHostFacts(Target& target, const HostFacts& facts) {
    target.groups = 1;
    target.coresPerGroup = std::max(facts.cpus, 1);
    if (facts.maxClockHz > 0)
        target.clockHz = facts.maxClockHz;
    target.channelGranule = std::max(facts.vectorFloats, 1);
    target.privateCacheBytes = facts.l2BytesPerCore;
    for (MemorySpace& memory : target.memories) {
        if (memory.name == target.workingMemory && facts.l2BytesPerCore > 0) {
            memory.capacityBytes = facts.scratchBytesPerCore();
            appendNote(memory.note, facts.lastLevelBytesPerCore > 0
                                        ? "probed: capacity = per-core L2 + last-level cache share"
                                        : "probed: capacity = per-core L2 share");
        } else if (memory.name == target.mainMemory && facts.memoryBytes > 0) {
            memory.capacityBytes = facts.memoryBytes;
            appendNote(memory.note, "probed: capacity = physical RAM");
        }
    }
    std::string probed = "Probed on this machine: ";
    for (std::size_t i = 0; i < facts.notes.size(); ++i)
        probed += (i ? "; " : "") + facts.notes[i];
    probed += ".";
    if (!target.description.empty())
        target.description += " ";
    target.description += probed;
}

} // namespace strata::target
