#pragma once
// The text of strata_rt.h, embedded at build time, for the C++ emitter to inline into every
// generated file (so the generated file stands alone).

#include <string_view>

namespace strata::compiler {

std::string_view runtimeText();

} // namespace strata::compiler
