#include "layout/GraphLayout.h"

namespace strata::layout {

bool Rect::contains(Point p, double tolerance) const {
    return p.x >= x - tolerance && p.x <= right() + tolerance && p.y >= y - tolerance &&
           p.y <= bottom() + tolerance;
}

bool Rect::contains(const Rect& other, double tolerance) const {
    return other.x >= x - tolerance && other.right() <= right() + tolerance &&
           other.y >= y - tolerance && other.bottom() <= bottom() + tolerance;
}

bool Rect::overlaps(const Rect& other) const {
    return x < other.right() && other.x < right() && y < other.bottom() && other.y < bottom();
}

std::string_view nodeKindName(NodeKind kind) {
    switch (kind) {
    case NodeKind::Op:
        return "op";
    case NodeKind::Block:
        return "block";
    case NodeKind::Input:
        return "input";
    case NodeKind::Output:
        return "output";
    }
    return "op";
}

std::optional<std::size_t> GraphLayout::findNode(NodeRef ref) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].ref == ref)
            return i;
    return std::nullopt;
}

} // namespace strata::layout
