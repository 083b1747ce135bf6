#include "document/Revision.h"

namespace strata::gui {

bool isCurrent(const RevisionPtr& shown, const RevisionPtr& current) {
    if (!shown || !current)
        return false;
    return shown == current || (shown->number != 0 && shown->number == current->number);
}

} // namespace strata::gui
