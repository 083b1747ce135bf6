#pragma once
// A byte view of working memory seen as elements of T (same box, same strides).

#include "compiler/emit/cpp/strata_rt.h"

#include <cstring>

namespace strata::runtime {

template <class T> strata_rt::View<T> viewAs(const strata_rt::View<unsigned char>& v) {
    strata_rt::View<T> out;
    out.data = reinterpret_cast<T*>(v.data);
    out.rank = v.rank;
    std::memcpy(out.lo, v.lo, sizeof v.lo);
    std::memcpy(out.ext, v.ext, sizeof v.ext);
    std::memcpy(out.full, v.full, sizeof v.full);
    std::memcpy(out.stride, v.stride, sizeof v.stride);
    return out;
}

} // namespace strata::runtime
