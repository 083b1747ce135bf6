#pragma once
// Bytes -> onnx::ModelProto, with the checks that must come before protobuf sees the bytes.

#include "base/Expected.h"

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace strata::model {

// ONNX protobuf files cannot exceed protobuf's 2 GiB message limit.
inline constexpr std::uint64_t kMaxModelFileBytes = (1ULL << 31) - 1;

// Parses `bytes` as an ONNX ModelProto. Recognises common non-ONNX formats (PNG, ZIP, ...) by
// their signature so the message says what the file is. `file` names the input in diagnostics.
Expected<std::shared_ptr<onnx::ModelProto>> parseModelProto(std::span<const std::byte> bytes,
                                                            const std::string& file);

} // namespace strata::model
