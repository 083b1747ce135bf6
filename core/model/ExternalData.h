#pragma once
// Loads tensors stored outside the model file ("external_data"), under the safety rules of
// onnx 1.21: the location is relative, stays inside the model's folder after resolution, is
// reached through no symlink, names a regular file, and offset/length lie within that file.

#include "base/Expected.h"
#include "base/MappedFile.h"
#include "ir/TensorData.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <string>

namespace strata::model {

class ExternalDataLoader {
  public:
    // `baseDir` is the model's folder; empty means external data is not allowed.
    explicit ExternalDataLoader(std::string baseDir) : m_baseDir(std::move(baseDir)) {}

    // Returns the tensor's bytes from the mapped file. `expectedBytes` is dims x element size.
    Expected<ir::TensorData> load(const onnx::TensorProto& tensor, std::uint64_t expectedBytes,
                                  const Location& where);

  private:
    Expected<std::shared_ptr<const MappedFile>> mapFile(const std::string& location,
                                                        const Location& where);

    std::string m_baseDir;
    std::map<std::string, std::shared_ptr<const MappedFile>> m_files; // one mapping per file
};

} // namespace strata::model
