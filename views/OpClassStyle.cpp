#include "views/OpClassStyle.h"

namespace strata::views {

QColor opClassColor(ir::OpClass opClass) {
    switch (opClass) {
    case ir::OpClass::Conv:
        return QColor(0x4E, 0x79, 0xA7);
    case ir::OpClass::MatMul:
        return QColor(0xB0, 0x7A, 0xA1);
    case ir::OpClass::Elementwise:
        return QColor(0x59, 0xA1, 0x4F);
    case ir::OpClass::Normalization:
        return QColor(0xF2, 0x8E, 0x2B);
    case ir::OpClass::Pooling:
        return QColor(0x76, 0xB7, 0xB2);
    case ir::OpClass::Reduction:
        return QColor(0xED, 0xC9, 0x48);
    case ir::OpClass::Softmax:
        return QColor(0xE1, 0x57, 0x59);
    case ir::OpClass::DataMovement:
        return QColor(0x9C, 0x75, 0x5F);
    case ir::OpClass::Other:
        return QColor(0xBA, 0xB0, 0xAC);
    }
    return QColor(0xBA, 0xB0, 0xAC);
}

} // namespace strata::views
