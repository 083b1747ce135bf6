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

TEST(HostProbe, ReadsSysfsAndDividesASharedL2) {
    TempDir root;
    root.write("sys/devices/system/cpu/online", "0-7\n");
    const std::string cache = "sys/devices/system/cpu/cpu0/cache/";
    root.write(cache + "index0/level", "1\n");
    root.write(cache + "index0/type", "Data\n");
    root.write(cache + "index0/size", "48K\n");
    root.write(cache + "index1/level", "2\n");
    root.write(cache + "index1/type", "Unified\n");
    root.write(cache + "index1/size", "2048K\n");
    root.write(cache + "index1/shared_cpu_list", "0-1,4-5\n");
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
    const std::string cache = "sys/devices/system/cpu/cpu0/cache/";
    root.write(cache + "index2/level", "2\n");
    root.write(cache + "index2/type", "Unified\n");
    root.write(cache + "index2/size", "1024K\n");
    root.write(cache + "index2/shared_cpu_list", "0\n");
    root.write(cache + "index3/level", "3\n");
    root.write(cache + "index3/type", "Unified\n");
    root.write(cache + "index3/size", "32M\n");
    root.write(cache + "index3/shared_cpu_list", "0-7\n");

    const target::HostFacts facts = target::probeHost(root.path());
    EXPECT_EQ(facts.l2BytesPerCore, 1u << 20);
    EXPECT_EQ(facts.lastLevelBytesPerCore, 4u << 20);
    EXPECT_EQ(facts.scratchBytesPerCore(), 5u << 20);
    EXPECT_TRUE(mentions({note(facts.notes.back())}, "L3 32 MiB shared by 8 CPUs, 4 MiB per core"));

    // A deeper level wins; an instruction cache never counts.
    root.write(cache + "index4/level", "4\n");
    root.write(cache + "index4/type", "Unified\n");
    root.write(cache + "index4/size", "128M\n");
    root.write(cache + "index4/shared_cpu_list", "0-7\n");
    root.write(cache + "index5/level", "5\n");
    root.write(cache + "index5/type", "Instruction\n");
    root.write(cache + "index5/size", "1G\n");
    EXPECT_EQ(target::probeHost(root.path()).lastLevelBytesPerCore, 16u << 20);
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
    TempDir root; // an empty tree: nothing to read
    const target::HostFacts facts = target::probeHost(root.path());
    EXPECT_GT(facts.cpus, 0);
    EXPECT_EQ(facts.l2BytesPerCore, 1u << 20);
    EXPECT_GT(facts.memoryBytes, 0u);
    EXPECT_EQ(facts.maxClockHz, 0.0);
    EXPECT_EQ(facts.vectorFloats, 1);
    EXPECT_TRUE(mentions({note(facts.notes[4])}, "vector width unknown"));
    EXPECT_TRUE(mentions({note(facts.notes[1])}, "no L2 cache listed in sysfs; assumed 1 MiB"));
    EXPECT_TRUE(mentions({note(facts.notes[3])}, "clock unknown"));
    EXPECT_EQ(facts.lastLevelBytesPerCore, 0u);
    EXPECT_TRUE(mentions({note(facts.notes[5])}, "no cache beyond L2 listed in sysfs"));
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
