#pragma once
// Working-memory layouts as a property of the program (Operand::channelBlock, docs/ISA.md
// "Layouts"). oneDNN's direct convolution wants its activations in another layout than the
// row-major boxes transfers move; converting each tile's boxes inside the kernel would be
// invisible to the listing and the emulator, and two convolutions in a row would convert
// there and back for nothing. So the compiler chooses:
//  - a convolution the direct kernel runs (a window larger than 1x1, one group, no input-channel
//    slices, every epilogue step a Map or a Zip over a box of its own region) writes its output
//    box channels-last (nhwc: the layout oneDNN 2.6 runs its fastest kernel on with AVX-512;
//    channel-blocked nChw<b>c runs end to end but is not chosen) when the box's channels are
//    whole vectors of the target's channel_granule, and reads its input so too when that box
//    holds all its channels in whole vectors and only the rows and columns its taps read (a
//    stem's 3 channels stay row-major);
//  - a depthwise convolution (whole vectors of channels) whose input box is channels-last (its
//    writer left it so) reads and writes channels-last: runtime/ChannelsLastConv.h sums its
//    taps over vectors of channels; an elementwise map on a channels-last box keeps the layout;
//  - a pointwise convolution (1x1, stride 1) reads its input in the layout its writer left (one
//    sgemm takes either, the transposition in its flags) and writes channels-last when every
//    reader of its output box (past maps) gains by it: a depthwise convolution (even one whose
//    output is reordered for a store or a pool after), a blocked one, another pointwise one;
//    and no residual box of its epilogue would need a reorder. An inverted-residual block's
//    expansion -> depthwise -> projection runs with no reorder;
//  - an elementwise Zip of boxes of one region (a residual Add) keeps its first input's
//    channels-last layout, the other inputs reordered to it if need be;
//  - every other reader sees row-major boxes;
//  - a transfer moves a box in the layout its Transfer::channelBlock names: a tensor living
//    channels-last in main memory (tiling/DramLayouts.h) is loaded into and stored from
//    channels-last boxes, and a store into such a home counts as a reader that gains by it;
//  - where a reader (or a store) needs another layout than the box's last writer left, a Reorder
//    compute (Program.h's kReorderOp) rewrites the box in place just before it: after a load
//    feeding such a convolution, before a store or a row-major reader.
// Convolution chains within a tile then keep the layout from one to the next (their fused
// activations and residual adds run on the box as it is), with no reorder between them.
// Nothing is reordered with a granule of 1 (the presets). insert-transfers runs it on each block's
// instructions after fusing epilogues, so the compile cache, the search's emulation and the
// program agree. Returns, per old id, the new one (inserted reorders take ids in list order,
// just before their reader).

#include "base/Diagnostic.h"
#include "compiler/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::compiler {

std::vector<std::int64_t> chooseLayouts(std::vector<Instruction>& instructions,
                                        std::vector<std::vector<InstrId>>& streams,
                                        const std::string& workingMemory, const ir::Graph& graph,
                                        int channelGranule);

// The same on a whole program (tests).
void chooseLayouts(Program& program, const ir::Graph& graph, int channelGranule);

// The verifier's check: along each core's stream, every compute reads each box in the layout its
// last writer left (a load: the transfer's; a compute or a reorder: its output's layout), a store
// moves a box in the layout it names (row-major or channels-last), and a reorder's input and
// output are the same box in two layouts of whole channel blocks.
void checkLayouts(const Program& program, const ir::Graph& graph, std::vector<Diagnostic>& out);

} // namespace strata::compiler
