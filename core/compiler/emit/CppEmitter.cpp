#include "compiler/emit/CppEmitter.h"

#include "base/Units.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/CppOps.h"
#include "compiler/emit/cpp/RuntimeText.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace strata::compiler {
namespace {

std::string list(const std::vector<std::int64_t>& v) { return fmt::format("{{{}}}", fmt::join(v, ", ")); }

// One past the last byte an access touches.
std::uint64_t accessEnd(const Access& a, std::size_t elementBytes) {
    std::int64_t last = 0;
    for (std::size_t d = 0; d < a.shape.size(); ++d) {
        if (a.shape[d] == 0) return a.offset;
        last += (a.shape[d] - 1) * (d < a.strides.size() ? a.strides[d] : 1);
    }
    return a.offset + static_cast<std::uint64_t>(last + 1) * elementBytes;
}

// A place in main memory the driver fills from, or writes to, a file.
struct Placement {
    std::uint64_t offset, bytes;
    std::string note;
};

class CppWriter {
  public:
    CppWriter(const Program& p, const ir::Graph& g) : m_p(p), m_g(g), m_references(g) {}

    Expected<CppProgram> run() {
        std::vector<Placement> weights, inputs, outputs;
        collectPlacements(weights, inputs, outputs);
        sizeMemories();
        std::vector<std::string> body = streams();
        if (!m_errors.empty()) return std::move(m_errors);

        std::string& s = m_out.source;
        header(inputs, outputs);
        s += "// ===== strata_rt: the runtime the kernels come from =====\n";
        s += runtimeText();
        if (!m_references.empty()) {
            s += "\n// ===== the reference evaluator (core/reference) and its bridge to strata_rt: the kernels of "
                 "the ops strata_rt has none for =====\n";
            s += m_references.evaluatorSource();
        }
        s += "\n// ===== the program =====\n\nnamespace rt = strata_rt;\n\nnamespace model {\n\n";
        if (!m_references.empty())
            s += m_references.source();
        // Work done once before the timed runs: the reference graph and its constants.
        s += m_references.empty() ? "void prepare() {}\n\n" : "void prepare() { (void)referenceProgram(); }\n\n";
        s += fmt::format("constexpr std::size_t kMainBytes = {};   // {} plan, {}\n", m_mainBytes, m_p.mainMemory,
                         formatBytes(m_mainBytes));
        s += fmt::format("constexpr std::size_t kScratchBytes = {}; // {} per core, {}\n", m_scratchBytes,
                         m_p.workingMemory, formatBytes(m_scratchBytes));
        s += fmt::format("constexpr int kCores = {};\n\n", m_p.cores);
        s += "struct Machine {\n"
             "    std::vector<unsigned char> main = std::vector<unsigned char>(kMainBytes);\n"
             "    std::vector<std::vector<unsigned char>> scratch =\n"
             "        std::vector<std::vector<unsigned char>>(kCores, std::vector<unsigned char>(kScratchBytes));\n"
             "};\n\n"
             "struct Placement {\n    std::size_t offset, bytes;\n};\n\n";
        placementTable("kWeights", weights);
        placementTable("kInputs", inputs);
        placementTable("kOutputs", outputs);
        for (const std::string& line : body) s += line;
        s += driver();
        return std::move(m_out);
    }

  private:
    void fail(std::string message, Location where = {}) {
        m_errors.push_back(error("C++ emitter: " + std::move(message), std::move(where)));
    }

    void collectPlacements(std::vector<Placement>& weights, std::vector<Placement>& inputs,
                           std::vector<Placement>& outputs) {
        for (const DramBuffer& b : m_p.dram) {
            if (b.role != DramBuffer::Role::Weight) continue;
            const ir::Value& v = m_g.value(b.value);
            if (v.data.size != b.bytes) {
                fail(fmt::format("weight '{}' has {} bytes of data, its buffer {}", v.name, v.data.size, b.bytes),
                     Location{.value = v.name});
                continue;
            }
            const auto* bytes = v.data.data;
            m_out.weights.insert(m_out.weights.end(), bytes, bytes + v.data.size);
            weights.push_back({b.offset, b.bytes, describe(v)});
        }
        for (ir::ValueId id : m_g.inputs) {
            const DramBuffer* home = m_p.dramOf(id);
            const ir::Value& v = m_g.value(id);
            // An input no op reads has no buffer; its bytes are still in the file, skipped.
            inputs.push_back({home ? home->offset : kNowhere, v.bytes(), describe(v)});
            m_out.inputBytes += v.bytes();
        }
        for (ir::ValueId id : m_g.outputs) {
            const DramBuffer* home = m_p.dramOf(id);
            const ir::Value& v = m_g.value(id);
            if (!home) {
                fail(fmt::format("output '{}' has no buffer in {}", v.name, m_p.mainMemory), Location{.value = v.name});
                continue;
            }
            outputs.push_back({home->offset, v.bytes(), describe(v)});
            m_out.outputBytes += v.bytes();
        }
    }

    static std::string describe(const ir::Value& v) {
        return fmt::format("{} {} {}", v.name, ir::dtypeName(v.dtype), ir::shapeToString(v.shape));
    }

    // Sizes the arrays to hold everything the instructions touch, not just the plans' figures.
    void sizeMemories() {
        m_mainBytes = std::max<std::uint64_t>(m_p.dramBytes, 1);
        m_scratchBytes = 1;
        for (const BlockCode& b : m_p.blocks) m_scratchBytes = std::max(m_scratchBytes, b.sramBytes);
        for (const Instruction& in : m_p.instructions) {
            if (const auto* t = std::get_if<Transfer>(&in.body)) {
                const std::size_t e = ir::dtypeSize(m_g.value(t->value).dtype);
                for (const Access* a : {&t->source, &t->destination}) {
                    std::uint64_t& size = a->memory == m_p.mainMemory ? m_mainBytes : m_scratchBytes;
                    size = std::max(size, accessEnd(*a, e));
                }
            } else if (const auto* c = std::get_if<Compute>(&in.body)) {
                for (const auto* operands : {&c->inputs, &c->outputs})
                    for (const Operand& o : *operands)
                        m_scratchBytes = std::max(m_scratchBytes,
                                                  o.offset + tiling::regionBytes(o.region, m_g.value(o.value).dtype));
            }
        }
    }

    void header(const std::vector<Placement>& inputs, const std::vector<Placement>& outputs) {
        std::string& s = m_out.source;
        const std::string name = m_p.modelName.empty() ? "model" : m_p.modelName;
        s += fmt::format("// {}.cpp: generated by Strata from model '{}' ({}) for target '{}'.\n", name, m_p.modelName,
                         m_p.modelHash, m_p.targetName);
        s += "//\n"
             "// The compiled program as C++. Main memory and each core's scratch memory are byte\n"
             "// arrays; every transfer is a strided copy between them and every compute a kernel "
             "of\n"
             "// strata_rt (below) on the scratch operands, each under its assembly line. Cores "
             "run one\n"
             "// after another between barriers; build with -DSTRATA_THREADS to run them on "
             "threads, and\n"
             "// with -DSTRATA_RT_CHECK to check every read against its operand's box. With\n"
             "// -DSTRATA_RT_DNNL and -ldnnl (oneDNN) convolutions and matrix products run at "
             "library speed.\n//\n";
        s += fmt::format(
            "//   g++ -O2 -std=c++20 {0}.cpp -o {0}\n"
            "//   g++ -O3 -march=native -std=c++20 -DSTRATA_RT_DNNL -DSTRATA_THREADS {0}.cpp -o "
            "{0} -ldnnl\n"
            "//   ./{0} {0}.weights.bin input.bin output.bin [REPEAT: time that many runs]\n//\n",
            name);
        s += fmt::format("// input.bin: the graph inputs' raw little-endian elements, one after another ({} bytes):\n",
                         m_out.inputBytes);
        for (const Placement& p : inputs) s += fmt::format("//   {} ({} bytes)\n", p.note, p.bytes);
        s += fmt::format("// output.bin: the graph outputs, the same way ({} bytes):\n", m_out.outputBytes);
        for (const Placement& p : outputs) s += fmt::format("//   {} ({} bytes)\n", p.note, p.bytes);
        s += "\n#include <chrono>\n\n#ifdef STRATA_THREADS\n#include <atomic>\n#include <barrier>\n#include "
             "<thread>\n#endif\n\n";
    }

    void placementTable(const char* name, const std::vector<Placement>& entries) {
        std::string& s = m_out.source;
        if (entries.empty()) {
            s += fmt::format("constexpr Placement* {} = nullptr; // none\nconstexpr std::size_t {}Count = 0;\n\n", name,
                             name);
            return;
        }
        s += fmt::format("constexpr Placement {}[] = {{\n", name);
        for (const Placement& p : entries) {
            if (p.offset == kNowhere)
                s += fmt::format("    {{SIZE_MAX, {}}}, // {} (read by no op)\n", p.bytes, p.note);
            else
                s += fmt::format("    {{0x{:x}, {}}}, // {}\n", p.offset, p.bytes, p.note);
        }
        s += fmt::format("}};\nconstexpr std::size_t {0}Count = sizeof({0}) / sizeof({0}[0]);\n\n", name);
    }

    // One function per core and part (the instructions between two barriers), then the table of
    // parts that run() walks.
    std::vector<std::string> streams() {
        std::vector<std::string> out;
        std::size_t parts = 1;
        for (const Instruction& in : m_p.instructions)
            if (const auto* b = std::get_if<Barrier>(&in.body)) parts = std::max<std::size_t>(parts, b->id + 2);
        std::vector<std::vector<bool>> present(parts, std::vector<bool>(m_p.streams.size(), false));
        for (std::size_t core = 0; core < m_p.streams.size(); ++core) {
            std::size_t part = 0;
            std::string fn;
            auto flush = [&] {
                if (!fn.empty()) {
                    out.push_back(fmt::format("static void part{}_core{}(Machine& m) {{\n"
                                              "    unsigned char* M = m.main.data();\n"
                                              "    unsigned char* S = m.scratch[{}].data();\n"
                                              "    (void)M;\n    (void)S;\n{}}}\n\n",
                                              part, core, core, fn));
                    present[part][core] = true;
                }
                fn.clear();
            };
            int block = -2;
            for (InstrId id : m_p.streams[core]) {
                const Instruction& in = m_p.instructions[id];
                if (std::holds_alternative<Barrier>(in.body)) {
                    fn += fmt::format("    // i{:06} {} (the end of this part)\n", in.id, instructionText(in, m_p, m_g));
                    flush();
                    ++part;
                    block = -2;
                    continue;
                }
                if (in.from.block != block && in.from.block >= 0) {
                    block = in.from.block;
                    fn += fmt::format("    // ---- B{}\n", block);
                }
                fn += statement(in);
            }
            flush();
        }
        std::string table = fmt::format("using Part = void (*)(Machine&);\n\n// The parts in program order; a part ends "
                                        "at a barrier every core reaches.\nconstexpr Part kParts[][kCores] = {{\n");
        for (std::size_t part = 0; part < parts; ++part) {
            std::vector<std::string> fns;
            for (std::size_t core = 0; core < m_p.streams.size(); ++core)
                fns.push_back(present[part][core] ? fmt::format("part{}_core{}", part, core) : "nullptr");
            table += fmt::format("    {{{}}},\n", fmt::join(fns, ", "));
        }
        table += "};\n\n";
        out.push_back(table);
        return out;
    }

    std::string statement(const Instruction& in) {
        std::string s = fmt::format("    // i{:06} {}\n", in.id, instructionText(in, m_p, m_g));
        if (const auto* t = std::get_if<Transfer>(&in.body)) {
            const std::size_t e = ir::dtypeSize(m_g.value(t->value).dtype);
            auto base = [&](const Access& a) -> std::string {
                if (a.memory == m_p.mainMemory) return "M";
                if (a.memory == m_p.workingMemory && a.instance == in.core) return "S";
                fail(fmt::format("i{} moves through '{}' instance {}, which the C++ emitter does not model", in.id,
                                 a.memory, a.instance));
                return "M";
            };
            s += fmt::format("    rt::move({} + 0x{:x}, {}, {} + 0x{:x}, {}, {}, {});\n", base(t->destination),
                             t->destination.offset, list(t->destination.strides), base(t->source), t->source.offset,
                             list(t->source.strides), list(t->source.shape), e);
            for (int core : t->alsoTo) // a broadcast: the same bytes into the further cores' scratch
                s += fmt::format("    rt::move(m.scratch[{}].data() + 0x{:x}, {}, {} + 0x{:x}, {}, {}, {});\n", core,
                                 t->destination.offset, list(t->destination.strides), base(t->source),
                                 t->source.offset, list(t->source.strides), list(t->source.shape), e);
            return s;
        }
        if (const auto* c = std::get_if<Compute>(&in.body)) {
            auto lines = cpp::computeStatements(m_g, m_g.op(in.from.op), *c, "S", m_references);
            if (!lines) {
                for (const Diagnostic& d : lines.diagnostics())
                    if (std::find_if(m_errors.begin(), m_errors.end(),
                                     [&](const Diagnostic& e) { return e.message == d.message; }) == m_errors.end())
                        m_errors.push_back(d);
                return s;
            }
            s += "    {\n";
            for (const std::string& line : *lines) s += "        " + line + "\n";
            s += "    }\n";
        }
        // A wait needs no code: the copy it waits for finished when its statement did.
        return s;
    }

    std::string driver() const {
        return R"(#ifdef STRATA_THREADS
// One thread per core (core 0 on the calling one), started once and kept across runs: what a
// kernel keeps per thread (oneDNN primitives, packed weights) is made on the first run only.
// The program's barriers are one std::barrier of all cores; two more start and end each run.
class Workers {
  public:
    explicit Workers(Machine& m) : m_m(m), m_sync(kCores), m_start(kCores), m_done(kCores) {
        for (std::size_t c = 1; c < static_cast<std::size_t>(kCores); ++c)
            m_threads.emplace_back([this, c] { serve(c); });
    }
    ~Workers() {
        m_stop = true;
        m_start.arrive_and_wait();
        for (std::thread& t : m_threads) t.join();
    }
    void run() {
        m_start.arrive_and_wait();
        parts(0);
        m_done.arrive_and_wait();
    }

  private:
    void serve(std::size_t c) {
        for (;;) {
            m_start.arrive_and_wait();
            if (m_stop) return;
            parts(c);
            m_done.arrive_and_wait();
        }
    }
    void parts(std::size_t c) {
        for (const auto& part : kParts) {
            if (part[c]) part[c](m_m);
            m_sync.arrive_and_wait(); // the barrier
        }
    }

    Machine& m_m;
    std::barrier<> m_sync, m_start, m_done;
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};
#endif

// One run of the program on `m`; with STRATA_THREADS on `workers`' threads.
void run(Machine& m, [[maybe_unused]] void* workers = nullptr) {
#ifdef STRATA_THREADS
    if (workers) return static_cast<Workers*>(workers)->run();
    Workers once(m);
    once.run();
#else
    for (const auto& part : kParts)
        for (Part p : part)
            if (p) p(m);
#endif
}

// Copies a file's consecutive tensors to (or from) their places in main memory.
void place(Machine& m, const std::vector<unsigned char>& file, const Placement* table, std::size_t count) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (table[i].offset != SIZE_MAX) std::memcpy(m.main.data() + table[i].offset, file.data() + at, table[i].bytes);
        at += table[i].bytes;
    }
}

std::size_t totalBytes(const Placement* table, std::size_t count) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += table[i].bytes;
    return n;
}

} // namespace model

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s WEIGHTS INPUT OUTPUT [REPEAT]\n", argv[0]);
        return 2;
    }
    // REPEAT > 1 times the runs and prints their median (weights placed once, as a model serving
    // run after run holds them; inputs before each run, untimed).
    const long repeat = argc == 5 ? std::strtol(argv[4], nullptr, 10) : 1;
    if (repeat < 1) {
        std::fprintf(stderr, "REPEAT must be a positive number of runs\n");
        return 2;
    }
    model::Machine m;
    std::vector<unsigned char> weights, inputs;
    if (!rt::readFile(argv[1], weights, model::totalBytes(model::kWeights, model::kWeightsCount)) ||
        !rt::readFile(argv[2], inputs, model::totalBytes(model::kInputs, model::kInputsCount)))
        return 2;
    model::prepare();
    void* workers = nullptr;
#ifdef STRATA_THREADS
    model::Workers threads(m); // the same threads for every run
    workers = &threads;
#endif
    std::vector<double> ms;
    model::place(m, weights, model::kWeights, model::kWeightsCount);
    for (long r = 0; r < repeat; ++r) {
        model::place(m, inputs, model::kInputs, model::kInputsCount);
        const auto start = std::chrono::steady_clock::now();
        model::run(m, workers);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    if (repeat > 1) {
        std::sort(ms.begin(), ms.end());
        std::fprintf(stderr, "run: median %.3f ms of %ld runs (fastest %.3f ms)\n", ms[ms.size() / 2], repeat, ms[0]);
    }
    std::FILE* out = std::fopen(argv[3], "wb");
    if (!out) {
        std::fprintf(stderr, "cannot write '%s'\n", argv[3]);
        return 1;
    }
    for (std::size_t i = 0; i < model::kOutputsCount; ++i)
        std::fwrite(m.main.data() + model::kOutputs[i].offset, 1, model::kOutputs[i].bytes, out);
    return std::fclose(out) == 0 ? 0 : 1;
}
)";
    }

    static constexpr std::uint64_t kNowhere = ~std::uint64_t{0};

    const Program& m_p;
    const ir::Graph& m_g;
    CppProgram m_out;
    cpp::ReferenceOps m_references;
    std::vector<Diagnostic> m_errors;
    std::uint64_t m_mainBytes = 0, m_scratchBytes = 0;
};

} // namespace

Expected<CppProgram> emitCpp(const Program& program, const ir::Graph& graph) { return CppWriter(program, graph).run(); }

} // namespace strata::compiler
