#include "document/DocumentRequest.h"

#include "document/ScheduleDocument.h"

namespace strata::gui {

namespace {

std::shared_ptr<const target::Target> currentTarget(const ScheduleDocument& document) {
    const auto& choice = document.state().target;
    return choice ? choice->target : nullptr;
}

} // namespace

CompileRequest currentRequest(const ScheduleDocument& document) {
    CompileRequest request;
    request.revision = document.revision();
    request.graph = document.graph();
    request.target = currentTarget(document);
    if (const auto& choice = document.state().target)
        request.targetName = choice->key;
    request.schedule = document.schedule();
    return request;
}

bool isComplete(const CompileRequest& request) {
    return request.graph && request.target && request.schedule;
}

bool isCurrentRequest(const CompileRequest& request, const ScheduleDocument& document) {
    return request.graph && request.graph == document.graph() &&
           request.schedule == document.schedule() && request.target == currentTarget(document);
}

} // namespace strata::gui
