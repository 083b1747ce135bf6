#include "runtime/ReduceKernel.h"

#include <algorithm>
#include <cmath>

namespace strata::runtime {

bool fastReduce(const rt::View<float>& y, const rt::View<float>& x, unsigned axes, bool keepDims,
                rt::Reduce kind) {
    int first = x.rank; // the first of the trailing reduced dims
    while (first > 0 && (axes >> (first - 1) & 1u))
        --first;
    if (first == x.rank)
        return false;
    for (int d = 0; d < first; ++d)
        if (axes >> d & 1u)
            return false; // a reduced dim before a kept one
    rt::i64 run = 1;
    for (int d = first; d < x.rank; ++d) {
        if (x.lo[d] != 0 || x.ext[d] != x.full[d])
            return false;
        run *= x.ext[d];
    }
    if (y.rank != (keepDims ? x.rank : first))
        return false;
    rt::i64 outer = 1;
    for (int d = 0; d < first; ++d) {
        if (y.lo[d] < x.lo[d] || y.lo[d] + y.ext[d] > x.lo[d] + x.ext[d])
            return false;
        outer *= y.ext[d];
    }
    if (outer == 0)
        return true;
    rt::i64 at[rt::kMaxRank] = {};
    float* out = y.data;
    for (rt::i64 i = 0; i < outer; ++i) {
        rt::i64 offset = 0;
        for (int d = 0; d < first; ++d)
            offset += (y.lo[d] + at[d] - x.lo[d]) * x.stride[d];
        const float* in = x.data + offset;
        double acc = kind == rt::Reduce::Max ? -INFINITY : kind == rt::Reduce::Min ? INFINITY : 0.0;
        if (kind == rt::Reduce::Max)
            for (rt::i64 j = 0; j < run; ++j)
                acc = std::max(acc, static_cast<double>(in[j]));
        else if (kind == rt::Reduce::Min)
            for (rt::i64 j = 0; j < run; ++j)
                acc = std::min(acc, static_cast<double>(in[j]));
        else
            for (rt::i64 j = 0; j < run; ++j)
                acc = acc + static_cast<double>(in[j]);
        *out++ =
            static_cast<float>(kind == rt::Reduce::Mean ? acc / static_cast<double>(run) : acc);
        for (int d = first; d-- > 0;) {
            if (++at[d] < y.ext[d])
                break;
            at[d] = 0;
        }
    }
    return true;
}

} // namespace strata::runtime
