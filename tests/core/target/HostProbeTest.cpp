// The host probe on this machine (figures positive, no exact values) and on fake /sys trees.

#include "target/HostProbe.h"

#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

TEST(HostProbe, ThisMachineGivesPositiveFigures) {
    const target::HostFacts facts = target::probeHost();
    EXPECT_GT(facts.cpus, 0);
    EXPECT_GT(facts.l2BytesPerCore, 0u);
    EXPECT_GT(facts.memoryBytes, 0u);
    EXPECT_GE(facts.maxClockHz, 0.0);
    EXPECT_GE(facts.notes.size(), 4u); // one per fact
}

// Lists cache `index` of cpu0 in a fake sysfs tree; no shared_cpu_list when `shared` is empty.
void writeCache(TempDir& root, int index, const std::string& level, const std::string& type,
                const std::string& size, const std::string& shared = {}) {
    const std::string dir = "sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    root.write(dir + "level", level + "\n");
    root.write(dir + "type", type + "\n");
    root.write(dir + "size", size + "\n");
    if (!shared.empty())
        root.write(dir + "shared_cpu_list", shared + "\n");
}

TEST(HostProbe, ReadsSysfsAndDividesASharedL2) {
    TempDir root;
    root.write("sys/devices/system/cpu/online", "0-7\n");
    writeCache(root, 0, "1", "Data", "48K");
    writeCache(root, 1, "2", "Unified", "2048K", "0-1,4-5");
    root.write("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3500000\n");
    root.write("proc/meminfo", "MemTotal:       16384000 kB\nMemFree: 1 kB\n");

    const target::HostFacts facts = target::probeHost(root.path());
    EXPECT_EQ(facts.cpus, 8);
    EXPECT_EQ(facts.l2BytesPerCore, 512u * 1024);
    EXPECT_EQ(facts.memoryBytes, 16384000ull * 1024);
    EXPECT_DOUBLE_EQ(facts.maxClockHz, 3.5e9);
}

TEST(HostProbe, ScratchIsTheL2PlusTheCoresShareOfTheLastLevelCache) {
    TempDir root;
    writeCache(root, 2, "2", "Unified", "1024K", "0");
    writeCache(root, 3, "3", "Unified", "32M", "0-7");

    const target::HostFacts facts = target::probeHost(root.path());
    EXPECT_EQ(facts.l2BytesPerCore, 1u << 20);
    EXPECT_EQ(facts.lastLevelBytesPerCore, 4u << 20);
    EXPECT_EQ(facts.lastLevelBytes, 32u << 20); // whether a model's weights fit it
    EXPECT_EQ(facts.scratchBytesPerCore(), 5u << 20);
    EXPECT_TRUE(mentions({note(facts.notes.back())}, "L3 32 MiB shared by 8 CPUs, 4 MiB per core"));

    // A deeper level wins; an instruction cache never counts.
    writeCache(root, 4, "4", "Unified", "128M", "0-7");
    writeCache(root, 5, "5", "Instruction", "1G");
    EXPECT_EQ(target::probeHost(root.path()).lastLevelBytesPerCore, 16u << 20);

    // A VM lists 2 CPUs sharing its socket's whole L3: a share beyond 16 MiB is not counted.
    writeCache(root, 4, "4", "Unified", "260M", "0-1");
    const target::HostFacts vm = target::probeHost(root.path());
    EXPECT_EQ(vm.lastLevelBytesPerCore, 16u << 20);
    EXPECT_EQ(vm.lastLevelBytes, 32u << 20);
    EXPECT_TRUE(mentions({note(vm.notes.back())}, "130 MiB per core, counted as 16 MiB"))
        << vm.notes.back();
}

TEST(HostProbe, CpuinfoClockWhenCpufreqIsMissing) {
    TempDir root;
    root.write("proc/cpuinfo",
               "processor : 0\ncpu MHz\t\t: 2300.000\nprocessor : 1\ncpu MHz\t\t: 2450.5\n");
    const target::HostFacts facts = target::probeHost(root.path());
    EXPECT_DOUBLE_EQ(facts.maxClockHz, 2450.5e6);
}

TEST(HostProbe, VectorWidthFromCpuinfoFlags) {
    const std::pair<const char*, int> cases[] = {
        {"flags\t\t: fpu sse2 avx avx2 fma avx512f avx512bw\n", 16},
        {"flags\t\t: fpu sse2 avx avx2 fma\n", 8},
        {"flags\t\t: fpu sse2\n", 4},
        {"Features\t: fp asimd evtstrm\n", 4},
        {"flags\t\t: fpu\n", 1}};
    for (const auto& [cpuinfo, floats] : cases) {
        TempDir root;
        root.write("proc/cpuinfo", std::string("processor : 0\n") + cpuinfo);
        EXPECT_EQ(target::probeHost(root.path()).vectorFloats, floats) << cpuinfo;
    }
}

TEST(HostProbe, FallbacksAreNoted) {
    TempDir root; // an empty tree and a processor that reports no caches: nothing to read
    const target::HostFacts facts = target::probeHost(root.path(), [](int) { return 0ull; });
    EXPECT_GT(facts.cpus, 0);
    EXPECT_EQ(facts.l2BytesPerCore, 1u << 20);
    EXPECT_GT(facts.memoryBytes, 0u);
    EXPECT_EQ(facts.maxClockHz, 0.0);
    EXPECT_EQ(facts.vectorFloats, 1);
    EXPECT_TRUE(mentions({note(facts.notes[4])}, "vector width unknown"));
    EXPECT_TRUE(mentions({note(facts.notes[1])},
                         "no L2 cache listed in sysfs or by the processor; assumed 1 MiB"));
    EXPECT_TRUE(mentions({note(facts.notes[3])}, "clock unknown"));
    EXPECT_EQ(facts.lastLevelBytesPerCore, 0u);
    EXPECT_TRUE(
        mentions({note(facts.notes[5])}, "no cache beyond L2 listed in sysfs or by the processor"));
}

// A VM whose sysfs lists no caches (seen on a 2-vCPU AMD EPYC VM): the processor's own report
// counts, its L2 per core and its L3 over the online CPUs with sysfs's cap.
TEST(HostProbe, WithoutSysfsCachesTheProcessorsReportCounts) {
    TempDir root;
    root.write("sys/devices/system/cpu/online", "0-1\n");
    const auto epycVm = [](int level) -> std::uint64_t {
        return level == 2 ? 1u << 20 : level == 3 ? 508ull << 20 : 0;
    };
    const target::HostFacts vm = target::probeHost(root.path(), epycVm);
    EXPECT_EQ(vm.l2BytesPerCore, 1u << 20);
    EXPECT_EQ(vm.lastLevelBytesPerCore, 16u << 20);
    EXPECT_EQ(vm.lastLevelBytes, 32u << 20);
    EXPECT_TRUE(mentions({note(vm.notes[1])}, "L2 1 MiB shared by 1 CPU, 1 MiB per core (reported "
                                              "by the processor; sysfs lists no caches)"))
        << vm.notes[1];
    EXPECT_TRUE(mentions({note(vm.notes.back())},
                         "L3 508 MiB shared by 2 CPUs, 254 MiB per core, counted as 16 MiB"))
        << vm.notes.back();

    // A small L3 over 4 CPUs is split evenly; a cache sysfs lists wins over the processor's.
    root.write("sys/devices/system/cpu/online", "0-3\n");
    const auto small = [](int level) -> std::uint64_t { return level == 3 ? 8u << 20 : 0; };
    const target::HostFacts four = target::probeHost(root.path(), small);
    EXPECT_EQ(four.lastLevelBytesPerCore, 2u << 20);
    EXPECT_EQ(four.l2BytesPerCore, 1u << 20); // no L2 reported: the stated assumption
    writeCache(root, 2, "2", "Unified", "512K", "0");
    const target::HostFacts listed = target::probeHost(root.path(), epycVm);
    EXPECT_EQ(listed.l2BytesPerCore, 512u * 1024);
    EXPECT_EQ(listed.lastLevelBytesPerCore, 0u);
}

TEST(HostProbe, FactsOverwriteTheDetectedFields) {
    target::Target t;
    t.description = "host";
    t.clockHz = 3e9;
    t.groups = 2;
    t.workingMemory = "scratch";
    t.mainMemory = "dram";
    t.memories = {{.name = "dram", .kind = target::MemoryKind::Dram, .capacityBytes = 1},
                  {.name = "scratch",
                   .kind = target::MemoryKind::Sram,
                   .scope = target::Scope::Core,
                   .capacityBytes = 1}};
    const target::HostFacts facts{.cpus = 6,
                                  .l2BytesPerCore = 1 << 19,
                                  .lastLevelBytesPerCore = 3 << 20,
                                  .memoryBytes = 1ull << 34,
                                  .maxClockHz = 0,
                                  .vectorFloats = 8,
                                  .notes = {"6 online CPUs"}};
    target::applyHostFacts(t, facts);
    EXPECT_EQ(t.groups, 1);
    EXPECT_EQ(t.coresPerGroup, 6);
    EXPECT_EQ(t.clockHz, 3e9); // unknown clock keeps the file's
    EXPECT_EQ(t.channelGranule, 8);
    EXPECT_EQ(t.workingMemoryBytes(), (1u << 19) + (3u << 20)); // L2 + last-level share
    EXPECT_EQ(t.findMemory("dram")->capacityBytes, 1ull << 34);
    EXPECT_EQ(t.description, "host Probed on this machine: 6 online CPUs.");
    EXPECT_NE(t.findMemory("scratch")->note.find("probed"), std::string::npos);
}

} // namespace
} // namespace strata::test
