// strata_bench_timeline: one frame of the Timeline tab on a synthetic 1,000,000-event trace
// (8 cores, 4 transfer paths: 40 lanes; issue 8's budget: under 16 ms per frame). Never a timed
// assertion. Offscreen Qt platform.
//
//   timeline/data            building the lanes and the id index (once per trace, not per frame)
//   timeline/frame/ZOOM      folding every visible lane into draw lists (core/timeline)
//   timeline/frame+paint/ZOOM  the draw lists and painting them into a 1600x1000 QImage
//   timeline/replot/ZOOM     the whole widget: QCustomPlot's ruler, lane labels, counter tracks
//                            and the lanes, rendered into a 1600x1000 pixmap
// ZOOM: full (the whole run) or mid (a hundredth of it, in the middle). Counter items = drawn
// rectangles per frame.

#include "timeline/Frame.h"
#include "timeline/TimelineData.h"
#include "views/timeline/FramePainter.h"
#include "views/timeline/TimelineView.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <qcustomplot.h>

#include <memory>
#include <random>

namespace {

using namespace strata;

constexpr std::uint32_t kCores = 8;
constexpr std::uint16_t kPaths = 4;
constexpr std::size_t kEvents = 1'000'000;
constexpr int kWidth = 1600;
constexpr int kHeight = 1000;

// Per core a stream of computes and waits, back to back, and transfers on four paths that
// overlap it (double buffering); bandwidth counters per path.
std::shared_ptr<const trace::Trace> syntheticTrace() {
    auto t = std::make_shared<trace::Trace>();
    t->cores = kCores;
    t->clockHz = 1e9;
    for (std::uint16_t p = 0; p < kPaths; ++p)
        t->paths.push_back({"path" + std::to_string(p), "dram", "sram"});
    t->ops = {"/layer/Conv", "/layer/Relu", "/layer/Add"};
    std::mt19937 rng(42);
    std::uniform_int_distribution<std::int64_t> length(200, 20'000);
    std::uniform_int_distribution<int> pick(0, 9);
    t->events.reserve(kEvents);
    std::vector<std::vector<trace::CounterSample>> bandwidth(kPaths);
    const std::size_t perCore = kEvents / kCores;
    std::uint32_t id = 0;
    for (std::uint32_t core = 0; core < kCores; ++core) {
        std::int64_t now = 0;
        for (std::size_t i = 0; i < perCore; ++i) {
            trace::Event e;
            e.id = id++;
            e.core = core;
            e.block = static_cast<std::int32_t>(i / 2'000);
            e.tile = static_cast<std::int32_t>(i % 2'000);
            e.op = static_cast<std::uint32_t>(i % 3);
            const int p = pick(rng);
            if (p < 4) {
                e.kind = trace::EventKind::Transfer;
                e.path = static_cast<std::uint16_t>(p);
                e.startPs = now;
                e.endPs = now + 2 * length(rng);
                e.bytes = 65536;
                if (core == 0) {
                    bandwidth[e.path].push_back({e.startPs, 12.5});
                    bandwidth[e.path].push_back({e.endPs, 0});
                }
            } else {
                e.kind = p < 9 ? trace::EventKind::Compute : trace::EventKind::Wait;
                e.startPs = now;
                e.endPs = now + length(rng);
                now = e.endPs;
            }
            t->events.push_back(e);
        }
    }
    for (std::uint16_t p = 0; p < kPaths; ++p) {
        std::sort(bandwidth[p].begin(), bandwidth[p].end(),
                  [](const auto& a, const auto& b) { return a.timePs < b.timePs; });
        t->counters.push_back({trace::Counter::Kind::PathBandwidth, p, std::move(bandwidth[p])});
    }
    return t;
}

const std::shared_ptr<const trace::Trace>& theTrace() {
    static const auto trace = syntheticTrace();
    return trace;
}

const timeline::TimelineData& theData() {
    static const timeline::TimelineData data({theTrace()});
    return data;
}

timeline::Viewport viewAt(bool mid, double width) {
    timeline::Viewport v;
    v.widthPx = width;
    v.fit(theData().endPs());
    if (mid) {
        const double total = static_cast<double>(theData().endPs());
        v.zoomToRange(total * 0.495, total * 0.505);
    }
    return v;
}

void BM_Data(benchmark::State& state) {
    for (auto _ : state) {
        timeline::TimelineData data({theTrace()});
        benchmark::DoNotOptimize(data.endPs());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * theTrace()->events.size()));
}

void BM_Frame(benchmark::State& state) {
    const auto rows = theData().rows(timeline::RowMode::Paired);
    const timeline::Viewport view = viewAt(state.range(0) == 1, kWidth - 200);
    timeline::Frame frame;
    for (auto _ : state) {
        timeline::buildFrame(theData(), rows, 0, rows.size(), view, frame);
        benchmark::DoNotOptimize(frame.lanes.data());
    }
    state.counters["items"] = static_cast<double>(frame.items());
    state.counters["lanes"] = static_cast<double>(rows.size());
}

void BM_FramePaint(benchmark::State& state) {
    const auto rows = theData().rows(timeline::RowMode::Paired);
    const views::timeline::TimelineStyle style = views::timeline::TimelineStyle::standard();
    const views::timeline::RowGeometry geometry = views::timeline::RowGeometry::of(rows, style);
    const timeline::Viewport view = viewAt(state.range(0) == 1, kWidth - 200);
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    timeline::Frame frame;
    for (auto _ : state) {
        timeline::buildFrame(theData(), rows, 0, rows.size(), view, frame);
        QPainter painter(&image);
        views::timeline::paintFrame(painter, QRectF(200, 20, kWidth - 200, kHeight - 20), frame, theData(), rows,
                                    geometry, style, {});
    }
    state.counters["items"] = static_cast<double>(frame.items());
}

void BM_Replot(benchmark::State& state) {
    views::timeline::TimelineView view;
    view.resize(kWidth, kHeight);
    view.show();
    view.setTraces({theTrace()});
    QCoreApplication::processEvents();
    view.plot()->replot();
    if (state.range(0) == 1) {
        const double total = static_cast<double>(theData().endPs());
        view.zoomToRange(total * 0.495, total * 0.505);
    }
    QPixmap pixmap(view.plot()->size());
    double step = 1;
    for (auto _ : state) {
        // What one pan step costs: a new frame, then QCustomPlot's full replot into a pixmap.
        view.pan(step);
        step = -step;
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        view.plot()->render(&pixmap);
    }
    state.counters["items"] = static_cast<double>(view.frame().items());
    state.counters["plot_w"] = view.plot()->width();
    state.counters["plot_h"] = view.plot()->height();
}

BENCHMARK(BM_Data)->Name("timeline/data")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Frame)->Name("timeline/frame/full")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Frame)->Name("timeline/frame/mid")->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FramePaint)->Name("timeline/frame+paint/full")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FramePaint)->Name("timeline/frame+paint/mid")->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Replot)->Name("timeline/replot/full")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Replot)->Name("timeline/replot/mid")->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
