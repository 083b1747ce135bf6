// Special files and whole writes (issue 24): readers refuse FIFOs, devices and directories up
// front instead of blocking on them; writers replace only a regular file, never a device, FIFO
// or symlink, and report the system's real reason when they fail.

#include "base/SafeFiles.h"

#include "base/Excerpt.h"
#include "base/JsonReader.h"
#include "base/MappedFile.h"
#include "support/TestModels.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string messageOf(const std::optional<Diagnostic>& d) {
    return d ? d->message : std::string("(none)");
}

class SafeFiles : public ::testing::Test {
  protected:
    fs::path fifo() const {
        const fs::path path = m_dir.path() / "pipe.onnx";
        EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
        return path;
    }
    test::TempDir m_dir;
};

TEST_F(SafeFiles, AFifoIsRefusedWithoutWaitingForAWriter) {
    const fs::path path = fifo();
    auto mapped = MappedFile::open(path.string());
    ASSERT_FALSE(mapped.ok());
    EXPECT_NE(mapped.diagnostics().front().message.find("FIFO"), std::string::npos);
    EXPECT_NE(messageOf(checkReadableFile(path.string(), "trace")).find("FIFO"), std::string::npos);
    auto imported = model::importOnnxFile(path.string());
    ASSERT_FALSE(imported.ok());
    EXPECT_TRUE(test::mentions(imported.diagnostics(), "FIFO"))
        << test::joined(imported.diagnostics());
    EXPECT_FALSE(json::readDocument(path.string()).ok());
}

TEST_F(SafeFiles, DevicesAndDirectoriesAreRefused) {
    EXPECT_NE(messageOf(checkReadableFile("/dev/zero")).find("character device"),
              std::string::npos);
    EXPECT_NE(messageOf(checkReadableFile(m_dir.path().string())).find("directory"),
              std::string::npos);
    EXPECT_EQ(messageOf(checkReadableFile((m_dir.path() / "missing").string())), "no such file");
    auto mapped = MappedFile::open("/dev/zero");
    ASSERT_FALSE(mapped.ok());
    EXPECT_NE(mapped.diagnostics().front().message.find("device"), std::string::npos);
    EXPECT_FALSE(checkReadableFile(m_dir.write("ok.txt", "x").string()));
}

TEST_F(SafeFiles, WritesCreateAndReplaceRegularFiles) {
    const fs::path path = m_dir.path() / "out.json";
    EXPECT_FALSE(writeFileAtomically(path.string(), "first"));
    EXPECT_EQ(readAll(path), "first");
    EXPECT_FALSE(writeFileAtomically(path.string(), [](std::ostream& o) { o << "second"; }));
    EXPECT_EQ(readAll(path), "second");
    // Nothing is left beside it.
    EXPECT_EQ(std::distance(fs::directory_iterator(m_dir.path()), fs::directory_iterator()), 1);
}

TEST_F(SafeFiles, AFifoOrSymlinkOrDeviceIsNeverReplaced) {
    const fs::path pipe = fifo();
    auto refused = writeFileAtomically(pipe.string(), "data");
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("FIFO"), std::string::npos) << refused->message;
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(pipe)));

    const fs::path real = m_dir.write("real.json", "keep");
    const fs::path link = m_dir.path() / "link.json";
    fs::create_symlink(real, link);
    refused = writeFileAtomically(link.string(), "data");
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("symbolic link"), std::string::npos) << refused->message;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(readAll(real), "keep");

    // /dev/full: a device is refused before anything is written, whoever runs the test.
    refused = writeFileAtomically("/dev/full", "data");
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("character device"), std::string::npos) << refused->message;
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
}

TEST_F(SafeFiles, AFailedWriteSaysWhyNotSuccess) {
    auto refused = writeFileAtomically((m_dir.path() / "no" / "such" / "out.json").string(), "x");
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("No such file or directory"), std::string::npos)
        << refused->message;
    EXPECT_EQ(refused->message.find("Success"), std::string::npos);
    if (::geteuid() == 0)
        GTEST_SKIP() << "root writes into read-only folders";
    const fs::path locked = m_dir.path() / "locked";
    fs::create_directory(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    refused = writeFileAtomically((locked / "out.json").string(), "x");
    fs::permissions(locked, fs::perms::owner_all);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->message.find("Permission denied"), std::string::npos) << refused->message;
}

TEST(Excerpt, QuotesAtMostEightyBytes) {
    const std::string huge(100'000'000, 'a');
    const std::string quoted = excerpt(huge);
    EXPECT_LT(quoted.size(), 120u);
    EXPECT_NE(quoted.find("(100000000 bytes)"), std::string::npos);
    EXPECT_EQ(excerpt("abc"), "abc");
    EXPECT_EQ(excerpt(std::string("a\nb\0c", 5)), "a?b?c");
}

TEST(Excerpt, DiagnosticsCutHugeValues) {
    const std::string huge(10'000'000, 'x');
    const Diagnostic d = error("unknown op '" + huge + "'", {.node = huge});
    EXPECT_LT(d.toString().size(), 3 * kMaxDiagnosticText);
}

TEST(JsonInput, DuplicateKeysAreAnError) {
    auto doc = json::parseDocument(R"({"a": 1, "b": {"c": 1, "c": 2}})", "dup.json");
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.diagnostics().front().message.find("duplicate key 'c'"), std::string::npos)
        << doc.diagnostics().front().message;
    // The same key in two objects is fine.
    EXPECT_TRUE(json::parseDocument(R"([{"a": 1}, {"a": 2}])", "ok.json").ok());
}

TEST(JsonInput, HugeNegativeIntegerIsTooSmallNotTooLarge) {
    auto doc = json::parseDocument(R"({"n": -1e308, "p": 1e300})", "n.json");
    ASSERT_TRUE(doc.ok());
    std::vector<Diagnostic> sink;
    json::FieldReader r(*doc, "", "n.json", sink);
    EXPECT_FALSE(r.integer("n"));
    EXPECT_FALSE(r.integer("p"));
    ASSERT_EQ(sink.size(), 2u);
    EXPECT_NE(sink[0].message.find("too small"), std::string::npos) << sink[0].message;
    EXPECT_NE(sink[1].message.find("too large"), std::string::npos) << sink[1].message;
}

} // namespace
} // namespace strata
