#include "model/OnnxImporter.h"

#include "base/MappedFile.h"
#include "model/ConstantFolding.h"
#include "model/ExternalData.h"
#include "model/GraphBuilder.h"
#include "model/InputShapes.h"
#include "model/ModelChecks.h"
#include "model/OpValidation.h"
#include "model/ProtoReader.h"

#include <filesystem>
#include <onnx/checker.h>
#include <onnx/version_converter/convert.h>

namespace strata::model {

namespace {

// Old opsets are converted so one set of op semantics covers what folding and costing read.
void convertOldOpset(std::shared_ptr<onnx::ModelProto>& model, const ImportOptions& options,
                     const std::string& file, std::vector<Diagnostic>& out) {
    const std::int64_t opset = defaultOpset(*model);
    if (opset >= options.minimumOpset) return;
    try {
        auto converted = std::make_shared<onnx::ModelProto>(
            onnx::version_conversion::ConvertVersion(*model, int(options.minimumOpset)));
        out.push_back(note("converted from opset " + std::to_string(opset) + " to " +
                               std::to_string(options.minimumOpset),
                           {.file = file}));
        model = std::move(converted);
    } catch (const std::exception& e) {
        out.push_back(warning("opset " + std::to_string(opset) + " could not be converted to " +
                                  std::to_string(options.minimumOpset) + " (" + e.what() +
                                  "); importing it as it is",
                              {.file = file}));
    }
}

// onnx::checker::check_model, but resolving external data against the model's folder rather
// than the working directory (the public overload taking a ModelProto has no folder).
void runOnnxChecker(const onnx::ModelProto& model, const std::string& baseDir) {
    if (model.ir_version() > onnx::IR_VERSION)
        throw std::runtime_error("the model's ir_version " + std::to_string(model.ir_version()) +
                                 " is newer than this onnx library supports (" +
                                 std::to_string(onnx::IR_VERSION) + ")");
    std::unordered_map<std::string, int> opsets;
    for (const auto& o : model.opset_import())
        opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = int(o.version());
    onnx::checker::CheckerContext ctx;
    ctx.set_ir_version(int(model.ir_version()));
    ctx.set_opset_imports(opsets);
    ctx.set_model_dir(baseDir);
    onnx::checker::LexicalScopeContext scope;
    onnx::checker::check_graph(model.graph(), ctx, scope);
    if (model.ir_version() >= 8) onnx::checker::check_model_local_functions(model, ctx, scope);
}

Expected<ImportedModel> importModel(std::shared_ptr<onnx::ModelProto> model,
                                    const std::string& file, const std::string& baseDir,
                                    const ImportOptions& options) {
    std::vector<Diagnostic> diags;
    auto failed = [&] { return hasErrors(diags); };
    auto errorsOnly = [&] {
        std::vector<Diagnostic> errors;
        for (auto& d : diags)
            if (d.severity == Severity::Error) errors.push_back(std::move(d));
        return errors;
    };

    checkGraphStructure(*model, file, diags);
    if (failed()) return errorsOnly();
    checkAttributeRanges(model->graph(), file, diags);
    if (failed()) return errorsOnly();
    // onnx's version converter and shape inference assume schema-valid windowed ops.
    checkWindowedOps(model->graph(), file, diags);
    if (failed())
        return errorsOnly();

    std::set<std::string> initializerNames;
    std::uint64_t parameters = 0;
    for (const auto& t : model->graph().initializer()) {
        initializerNames.insert(t.name());
        parameters += static_cast<std::uint64_t>(
            ir::elementCount({t.dims().begin(), t.dims().end()}).value_or(0));
    }

    // External data is validated and mapped before onnx's checker looks at the files.
    BuildInputs inputs{model, file, std::move(initializerNames), parameters, {}};
    ExternalDataLoader external(baseDir);
    for (const auto& t : model->graph().initializer()) {
        if (t.data_location() != onnx::TensorProto::EXTERNAL) continue;
        const auto n = ir::elementCount({t.dims().begin(), t.dims().end()}).value_or(0);
        auto data = external.load(t, std::uint64_t(n) * ir::dtypeSize(ir::DType(t.data_type())),
                                  {.file = file, .value = t.name()});
        if (!data) return data.takeDiagnostics();
        inputs.externalData.emplace(t.name(), *data);
    }

    try {
        runOnnxChecker(*model, baseDir);
    } catch (const std::exception& e) {
        return error(std::string("the ONNX checker rejects the model: ") + e.what(), {.file = file});
    }
    convertOldOpset(model, options, file, diags);
    applyInputShapes(*model, options, file, diags);
    if (failed()) return errorsOnly();
    checkWindowedOps(model->graph(), file, diags); // again: --input-shape may change ranks
    if (failed())
        return errorsOnly();

    auto folded = inferShapesAndFold(*model, file);
    if (!folded) return folded.takeDiagnostics();
    checkWindowedOps(model->graph(), file, diags); // intermediate values now have shapes
    if (failed())
        return errorsOnly();
    if (folded->foldedNodes > 0)
        diags.push_back(note("constant-folded " + std::to_string(folded->foldedNodes) +
                                 " node(s) of shape computations and constants",
                             {.file = file}));

    inputs.model = model; // version conversion may have replaced it
    auto graph = buildGraph(inputs, diags);
    if (!graph) return graph.takeDiagnostics();
    return ImportedModel{std::move(*graph), std::move(diags)};
}

} // namespace

Expected<ImportedModel> importOnnxBytes(std::span<const std::byte> bytes,
                                        const std::string& displayName,
                                        const std::string& baseDir, const ImportOptions& options) {
    // onnx and protobuf throw on some inputs; nothing may escape into callers (or Qt).
    try {
        auto model = parseModelProto(bytes, displayName);
        if (!model) return model.takeDiagnostics();
        return importModel(std::move(*model), displayName, baseDir, options);
    } catch (const std::bad_alloc&) {
        return error("out of memory while importing the model", {.file = displayName});
    } catch (const std::exception& e) {
        return error(std::string("import failed: ") + e.what(), {.file = displayName});
    }
}

Expected<ImportedModel> importOnnxFile(const std::string& path, const ImportOptions& options) {
    auto file = MappedFile::open(path);
    if (!file) return file.takeDiagnostics();
    std::error_code ec;
    const auto folder = std::filesystem::absolute(path, ec).parent_path().string();
    // The mapping is only needed while protobuf copies out of it.
    return importOnnxBytes((*file)->bytes(), path, folder, options);
}

} // namespace strata::model
