#pragma once
// Depth-first tiling of one fusion block (SOL, Paleozoic): the block's anchor output is cut into
// a grid of tiles; for every tile, bounds inference walks the block's ops backwards to find the
// region each op must compute and each block input must be loaded. Intermediates live only in
// SRAM, overlapping halos are recomputed. From this come the block's SRAM working set, its DRAM
// traffic and its recompute overhead, exactly, tile by tile.
//
// Block outputs other than the anchor are written in proportional slices (tile i of G along a
// dimension writes rows [i*D/G, (i+1)*D/G)), so every output element is stored exactly once.
// An output whose rank differs from the anchor's is written whole by the first tile.
//
// A convolution whose tiles do not fit even at one element (all its input channels and their
// weights at once) has its input channels cut into slices: a tile loads one slice of the input
// box and of the weights at a time and accumulates the partial sums into its output tile, which
// stays in working memory across the slices (docs/SCHEDULES.md).
//
// A target computes a convolution's or matrix product's output channels a vector at a time
// (target::Target::channelGranule): a tile of 2 channels costs what one of 16 does with AVX-512.
// Given that granule, the grid search cuts the anchor's output-channel dimension only into whole
// vectors (or leaves it whole) and cuts rows and columns instead; only when no such grid fits
// does it go below one vector.

#include "ir/Graph.h"
#include "tiling/Region.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace strata::tiling {

// A grid refused because it would make too many tiles to enumerate (and instructions to emit).
inline constexpr std::int64_t kMaxTilesPerBlock = 65536;
// The busiest tile's work over the average tile's that still counts as even. Halos and short
// edge tiles make a small map's tiles differ by a fair margin (a strided 5x5 window on 8 rows cut
// in two); a cut between two branches, one tile doing every convolution, is 2.
inline constexpr double kMaxCoreImbalance = 1.5;

struct TileGrid {
    ir::Shape extents;                // tile extent per anchor dimension
    std::vector<std::int64_t> counts; // tiles per dimension: ceil(dim / extent)
    // Input channels per slice of the block's sliced convolution (BlockTiler::slicedOp); 0 when
    // every tile reads all of them at once.
    std::int64_t sliceChannels = 0;

    std::int64_t tileCount() const;
    // Multi-index of tile `index` (row-major over counts).
    std::vector<std::int64_t> position(std::int64_t index) const;
};

TileGrid makeGrid(const ir::Shape& anchorShape, const ir::Shape& extents,
                  std::int64_t sliceChannels = 0);

// Slice `index` of `sliceChannels` channels of a sliced convolution's input or weight region:
// dimension 1 cut to [index * sliceChannels, (index + 1) * sliceChannels), within `channels`.
Region channelSlice(Region region, std::int64_t sliceChannels, std::int64_t index,
                    std::int64_t channels);

// What the tiled block costs; all tiles summed unless named "peak".
struct BlockCost {
    TileGrid grid;
    double flops = 0;        // computed, halos recomputed included
    double unfusedFlops = 0; // the ops' own FLOPs, each output computed once
    // Output elements the ops compute, recomputed ones included, and each op's own once. A
    // Transpose has no FLOPs and a layer normalization few, yet both take time per element:
    // counted in FLOPs alone, convnext_tiny's last stage recomputed both whole for each of the 96
    // column tiles of the matrix product after them, at "7.7%".
    double elements = 0;
    double unfusedElements = 0;
    std::uint64_t dramReadBytes = 0;  // block inputs and weights loaded from DRAM
    std::uint64_t dramWriteBytes = 0; // block outputs stored to DRAM
    // Constant inputs (weights) read again by ops that tiles compute whole, past one such
    // computation per core: every tile of a squeeze-excite block cut by rows runs the excite
    // step's matrix-vector product whole, and that reads its weights, not its few FLOPs' worth.
    std::uint64_t repeatedWeightBytes = 0;
    std::uint64_t sramPeakBytes = 0;  // largest per-tile working set, double buffers included
    // The peak's parts: sramResidentBytes + sramSlots x sramSlotBytes. Resident: the inputs every
    // tile reads whole (weights), loaded once for the block; a slot: the largest tile's other
    // values packed by lifetime; one slot per buffer (2 when double-buffered).
    std::uint64_t sramResidentBytes = 0;
    std::uint64_t sramSlotBytes = 0;
    int sramSlots = 1;
    // The anchor's output channels cut below whole vectors (BlockTiler's channelGranule): no
    // whole-vector grid fits, so kernels run tiles of a few channels at a fraction of their rate.
    bool partialVectors = false;
    std::int64_t tiles() const { return grid.tileCount(); }
    double recomputeRatio() const { return unfusedFlops > 0 ? flops / unfusedFlops - 1.0 : 0.0; }
    // The output elements computed more than once, as a fraction of the ops' own.
    double elementRecomputeRatio() const {
        return unfusedElements > 0 ? elements / unfusedElements - 1.0 : 0.0;
    }
};

// One tile of a block, as the compiler emits it.
struct TilePlan {
    Region anchor;                                        // the anchor region this tile makes
    std::vector<std::pair<ir::ValueId, Region>> loads;    // block inputs read, in block-input order
    std::vector<ir::OpId> ops;                            // ops that compute something, in order
    std::vector<std::pair<ir::ValueId, Region>> computed; // region of every value the ops make
    std::vector<std::pair<ir::ValueId, Region>> stores;   // block outputs written back
    double flops = 0;
    // When the grid slices input channels: the convolution, its input channel count, and the
    // channels per slice. Its input and weight loads above are slice 0's regions (the largest);
    // the compiler loads and computes slice after slice, accumulating.
    ir::OpId slicedOp;
    std::int64_t slicedChannels = 0;
    std::int64_t sliceChannels = 0;
    std::int64_t slices() const {
        return sliceChannels > 0 ? (slicedChannels + sliceChannels - 1) / sliceChannels : 1;
    }
};

// The data-flow structure of a block, computed once and reused for every tile and candidate.
class BlockTiler {
  public:
    // `ops` must be non-empty, and sorted in the graph's topological order. `channelGranule`:
    // output channels per vector of the target's compute (1: no constraint).
    BlockTiler(const ir::Graph& graph, std::span<const ir::OpId> ops,
               std::int64_t channelGranule = 1);

    ir::ValueId anchor() const { return m_anchor; }
    const ir::Shape& anchorShape() const;
    const std::vector<ir::ValueId>& blockInputs() const { return m_inputs; }
    const std::vector<ir::ValueId>& blockOutputs() const { return m_outputs; }
    // The convolution whose input channels a grid may slice: group 1, 2-D, float, its input and
    // weights loaded by the block and read by no other op of it (the one with the largest weights
    // when several are); invalid when the block has none.
    ir::OpId slicedOp() const {
        return m_sliceAt < 0 ? ir::OpId{} : m_ops[static_cast<std::size_t>(m_sliceAt)];
    }
    // The anchor dimension holding the output channels of the block's largest convolution (1)
    // or matrix product (the last), when the anchor keeps them; nullopt otherwise. Grids cut it
    // in whole granules.
    std::optional<std::size_t> channelDim() const;

    // Every tile of the grid, evaluated. `mp` cores each keep their own copy of a block input
    // that is the same for every tile (weights), loaded once per core that gets tiles.
    BlockCost evaluate(const TileGrid& grid, int buffering, int mp) const;

    // The per-tile working set of the grid's largest (interior) tile; cheap, for tile search.
    std::uint64_t interiorFootprint(const TileGrid& grid, int buffering) const;
    // The working set of 1-element tiles: the largest of those at the anchor's corners, edges
    // and middle (a dilated convolution's edge tiles read a wider box of taps than its middle
    // ones), for saying why no grid fits.
    std::uint64_t elementTileFootprint(int buffering) const;

    // Tile `index` of the grid (row-major): what it loads, computes and stores.
    TilePlan planTile(const TileGrid& grid, std::int64_t index) const;

    // A grid whose every tile fits `capacityBytes`, with at least `minTiles` tiles (one per core;
    // fewer when the anchor cannot be cut that finely): halve one dimension at a time, each time
    // the one that adds the least DRAM traffic for the working set it saves, until it fits; then
    // climb (grow a dimension, or grow one and halve another) while that lowers the traffic.
    // When the halving paints itself into a corner (only grids of more than kMaxTilesPerBlock
    // tiles left), every grid of halved extents is tried instead. When no grid fits and the block
    // has a convolution to slice, its input channels are halved until one does (and twice more,
    // taking the grid with the least traffic), unless whole tiles fit single-buffered. All of
    // this first with the channel dimension cut in whole granules; below one only when no grid
    // fits that way at any buffering. nullopt when none fits. Neither the halving nor the
    // climb takes a grid whose cores get uneven work (coreImbalance above kMaxCoreImbalance)
    // where an even one will do: least traffic alone cut ShuffleNet's blocks
    // between their two branches, leaving one core every convolution and the other a copy.
    std::optional<TileGrid> chooseGrid(std::uint64_t capacityBytes, int buffering,
                                       std::int64_t minTiles) const;
    // chooseGrid() and evaluate(grid, buffering, minTiles) in one pass over the tiles.
    std::optional<BlockCost> chooseAndEvaluate(std::uint64_t capacityBytes, int buffering,
                                               std::int64_t minTiles) const;

    // The anchor lives channels-last in main memory (DramLayouts.h): where cutting rows and
    // cutting channels cost the same (an elementwise block), cut rows. A tile of whole rows is one
    // run of memory; one of half the channels is a run of C/2 values per position (64-byte runs
    // for EfficientNet-B0's 32 channels), which loads and stores at a fraction of the speed.
    void preferRowCuts(bool prefer) { m_rowCutsFirst = prefer; }

  private:
    struct TileResult;
    struct Demand {
        std::vector<std::optional<Region>> regions; // per local value
        std::vector<std::pair<ir::ValueId, Region>> stores;
        std::vector<std::size_t> computed; // op positions, in order
        double flops = 0;
        double elements = 0;
        std::uint64_t writeBytes = 0;
        std::uint64_t wholeWeightBytes = 0; // constant inputs of the ops computed whole
    };
    Demand demand(const TileGrid& grid, const std::vector<std::int64_t>& position) const;
    struct GridEstimate {
        std::uint64_t footprint = 0; // of the middle tile(s)
        double dramBytes = 0;        // reads, extrapolated from the middle tile
    };
    GridEstimate estimate(const TileGrid& grid, int buffering, int mp) const;
    // How unevenly the grid's tiles share the work the cores get (`mp` of them; 1: nothing to
    // share): the busiest tile's FLOPs or computed elements over the average tile's, whichever
    // is worse. 1 when even, and for grids of many tiles (not checked: the deal evens them out).
    double coreImbalance(const TileGrid& grid, int mp) const;
    // `extent` of dimension `d` halved; along the channel dimension rounded up to whole
    // granules. `extent` itself when it cannot be cut further.
    std::int64_t halved(std::size_t d, std::int64_t extent, std::int64_t granule) const;
    std::optional<BlockCost> chooseAtGranule(std::uint64_t capacityBytes, int buffering,
                                             std::int64_t minTiles, std::int64_t granule) const;
    // `capped`: when it gives up, whether a halving was left that only the tile cap ruled out.
    std::optional<BlockCost> chooseWithSlices(std::uint64_t capacityBytes, int buffering,
                                              std::int64_t minTiles, std::int64_t sliceChannels,
                                              std::int64_t granule) const;
    std::optional<BlockCost> shrinkToFit(std::uint64_t capacityBytes, int buffering,
                                         std::int64_t minTiles, std::int64_t sliceChannels,
                                         std::int64_t granule, bool& capped) const;
    std::optional<BlockCost> searchHalvedGrids(std::uint64_t capacityBytes, int buffering,
                                               std::int64_t minTiles, std::int64_t sliceChannels,
                                               std::int64_t granule) const;
    bool isSlicedInput(std::size_t local, const TileGrid& grid) const;
    void findSlicedOp();
    void findChannelDim();
    BlockCost refine(BlockCost start, std::uint64_t capacityBytes, int buffering,
                     std::int64_t minTiles, std::int64_t granule) const;
    TileResult evaluateTile(const TileGrid& grid, const std::vector<std::int64_t>& position,
                            int buffering) const;
    Region anchorRegion(const TileGrid& grid, const std::vector<std::int64_t>& position) const;

    const ir::Graph& m_graph;
    std::vector<ir::OpId> m_ops;
    ir::ValueId m_anchor;
    std::vector<ir::ValueId> m_inputs;  // read by the block, made outside it (weights included)
    std::vector<ir::ValueId> m_outputs; // made in the block, read outside it or graph outputs

    // Block-local value numbering: inputs first, then values produced by the block's ops.
    std::vector<ir::ValueId> m_localValues;
    std::vector<int> m_producedAt;     // op position producing it; -1 for block inputs
    std::vector<Region> m_fullRegions; // per local value
    std::vector<std::pair<std::uint32_t, int>> m_localIndex; // (value index, local), sorted
    int m_sliceAt = -1;                        // position of slicedOp() in m_ops, or -1
    int m_sliceInput = -1, m_sliceWeight = -1; // its input's and weights' local indices
    std::int64_t m_sliceChannelCount = 0;      // its input channels
    std::int64_t m_granule = 1;                // output channels per vector
    int m_channelDim = -1;                     // channelDim(), or -1
    bool m_rowCutsFirst = false;               // preferRowCuts()
    int localIndex(ir::ValueId id) const;      // -1 if not the block's
    bool inBlock(ir::OpId op) const;
    double outputElements(ir::ValueId id) const; // of a value, 0 when unknown
};

} // namespace strata::tiling
