#pragma once
// The compile cache for the graph and target being edited (compiler/CompileCache.h), made anew
// when either changes. It keeps both alive, so the cache's references to them stay valid. One
// thread at a time may use it: EmulateJob's single worker.

#include "compiler/CompileCache.h"

#include <memory>

namespace strata::gui {

class CompileCacheSlot {
  public:
    compiler::CompileCache& cacheFor(const std::shared_ptr<const ir::Graph>& graph,
                                     const std::shared_ptr<const target::Target>& target) {
        if (!m_cache || graph != m_graph || target != m_target) {
            m_cache.reset();
            m_graph = graph;
            m_target = target;
            m_cache = std::make_unique<compiler::CompileCache>(*graph, *target);
        }
        return *m_cache;
    }

  private:
    std::shared_ptr<const ir::Graph> m_graph;
    std::shared_ptr<const target::Target> m_target;
    std::unique_ptr<compiler::CompileCache> m_cache;
};

} // namespace strata::gui
