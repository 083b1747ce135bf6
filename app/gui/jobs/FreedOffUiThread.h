#pragma once
// Freeing a compiled program means hundreds of thousands of small deallocations (several
// milliseconds on ResNet-50). The last reference to the previous prediction is dropped on the UI
// thread when a new one is shown after an edit, so objects made with this helper are deleted on
// a pool thread instead whenever their last owner lets go on the UI thread.

#include "jobs/JobRunner.h"

#include <QCoreApplication>
#include <QThread>
#include <memory>

namespace strata::gui {

template <class T> std::shared_ptr<T> freedOffUiThread(T value) {
    return std::shared_ptr<T>(new T(std::move(value)), [](T* object) {
        const QCoreApplication* app = QCoreApplication::instance();
        if (app && QThread::currentThread() == app->thread())
            JobRunner::instance().pool().start([object] { delete object; });
        else
            delete object;
    });
}

} // namespace strata::gui
