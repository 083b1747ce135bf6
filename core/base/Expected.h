#pragma once
// Expected<T>: a value, or the diagnostics explaining why there is none (as Glow's loaders do).

#include "base/Diagnostic.h"

#include <cassert>
#include <utility>
#include <variant>
#include <vector>

namespace strata {

template <class T> class Expected {
  public:
    Expected(T value) : m_state(std::move(value)) {}
    Expected(Diagnostic diagnostic) : m_state(std::vector<Diagnostic>{std::move(diagnostic)}) {}
    Expected(std::vector<Diagnostic> diagnostics) : m_state(std::move(diagnostics)) {
        assert(!std::get<1>(m_state).empty());
    }

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_state); }
    const T& value() const& { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const std::vector<Diagnostic>& diagnostics() const { return std::get<1>(m_state); }
    std::vector<Diagnostic>&& takeDiagnostics() { return std::get<1>(std::move(m_state)); }

  private:
    std::variant<T, std::vector<Diagnostic>> m_state;
};

} // namespace strata
