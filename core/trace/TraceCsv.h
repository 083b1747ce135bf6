#pragma once
// CSV export of a trace's events, one row per event, for spreadsheets and pandas.

#include "trace/Trace.h"

#include <ostream>

namespace strata::trace {

// Columns: id,core,kind,path,start_ns,end_ns,duration_ns,cycles,bytes,block,op,tile,link,source.
// cycles is empty when the trace has no clock; path and op are empty when they do not apply.
void writeTraceCsv(const Trace& trace, std::ostream& out);

} // namespace strata::trace
