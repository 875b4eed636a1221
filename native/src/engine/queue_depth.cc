// Queue-depth runs, OS-blind: prepare the test file, start the workers of the chosen engine, take
// a sample every interval, stop on time, byte budget, error or cancel, and sum up.
#include <random>
#include <thread>

#include "io.h"

namespace plumb {
namespace {

constexpr uint32_t kFillChunk = 1u << 20;
constexpr uint64_t kPollNanos = 5'000'000;  // cancel and stop checks; well under the 200 ms promise

uint64_t RandomSeed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device() ^ MonotonicNanos();
}

// xorshift128+: fast and good enough to scatter offsets.
uint64_t NextRandom(uint64_t* s) {
  uint64_t x = s[0];
  const uint64_t y = s[1];
  s[0] = y;
  x ^= x << 23;
  s[1] = x ^ y ^ (x >> 17) ^ (y >> 26);
  return s[1] + y;
}

bool Cancelled(const QueueRequest& request) {
  return request.cancel && request.cancel->cancelled.load(std::memory_order_relaxed);
}

// Writes incompressible data until the file holds `bytes`.
bool FillTestFile(IoFile& file, const QueueRequest& request, SysError* err) {
  const uint64_t alignment = file.direct() ? file.alignment() : 1;
  const uint64_t padded = (request.fileBytes + alignment - 1) / alignment * alignment;
  AlignedBuffer buffer(kFillChunk, kBufferAlignment, true);
  if (!buffer.ok()) {
    *err = MakeError("ENOMEM", "queueDepthRun", request.path, "cannot allocate the fill buffer");
    return false;
  }
  FillIncompressible(buffer.data(), kFillChunk, RandomSeed());
  uint64_t stamp = RandomSeed();
  for (uint64_t offset = 0; offset < padded;) {
    if (Cancelled(request)) {
      *err = MakeError("ECANCELED", "write", request.path, "the operation was cancelled");
      return false;
    }
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kFillChunk, padded - offset));
    StampBlocks(buffer.data(), n, &stamp);
    if (!file.WriteAt(buffer.data(), n, offset, err)) return false;
    offset += n;
  }
  if (padded != request.fileBytes && !file.Truncate(request.fileBytes, err)) return false;
  return file.Flush(err);
}

const QueueEngine* ChooseEngine(const QueueRequest& request, bool direct, SysError* err) {
  std::vector<const QueueEngine*> engines = PlatformQueueEngines();
  engines.push_back(&kThreadsEngine);
  for (const QueueEngine* engine : engines) {
    if (!request.engine.empty() && request.engine != engine->name) continue;
    if (engine->available(direct)) return engine;
    if (!request.engine.empty()) break;
  }
  if (request.engine.empty()) return &kThreadsEngine;
  *err = MakeError("ENOTSUP", "queueDepthRun", request.path,
                   "the \"" + request.engine + "\" engine is not available here for " +
                       (direct ? "direct" : "buffered") +
                       " I/O; leave engine unset to use the best one");
  return nullptr;
}

}  // namespace

QueueJob::QueueJob(const QueueRequest& request, IoFile& file)
    : request_(request), file_(file), blocks_(request.fileBytes / request.blockSize) {}

bool QueueJob::Claim(QueueWorker& worker, uint64_t* offset) {
  if (ShouldStop()) return false;
  if (request_.totalBytes && claimedBytes_.fetch_add(request_.blockSize) >= request_.totalBytes)
    return false;
  const uint64_t block = request_.random
                             ? NextRandom(worker.rng) % blocks_
                             : nextBlock_.fetch_add(1, std::memory_order_relaxed) % blocks_;
  *offset = block * request_.blockSize;
  return true;
}

void QueueJob::Fail(const SysError& err) {
  bool expected = false;
  if (failed_.compare_exchange_strong(expected, true)) error_ = err;
  Stop();
}

bool RunQueueDepth(const QueueRequest& request, QueueOutcome* out, SysError* err) {
  const bool existed = FileExists(request.path);
  IoFile file;
  if (!file.Open(request.path, OpenOptions{FileAccess::kReadWrite, request.buffered, true}, err))
    return false;
  bool ours = !existed;  // a file this call created or rewrote goes when the run fails
  auto fail = [&](const SysError& cause) {
    SysError ignored;
    file.Close(&ignored);
    if (ours) RemoveFile(request.path);
    *err = cause;
    return false;
  };
  if (file.direct() && request.blockSize % file.alignment() != 0) {
    return fail(MakeError("EINVAL", "queueDepthRun", request.path,
                          "blockSize " + std::to_string(request.blockSize) +
                              " is not a multiple of the " + std::to_string(file.alignment()) +
                              "-byte alignment direct I/O needs here"));
  }
  uint64_t size = 0;
  if (!file.Size(&size, err)) return fail(*err);
  if (size < request.fileBytes) {
    ours = true;
    if (!FillTestFile(file, request, err)) return fail(*err);
  }
  const QueueEngine* engine = ChooseEngine(request, file.direct(), err);
  if (!engine) return fail(*err);
  if (!file.direct() && !request.write) file.DropCache(request.fileBytes);

  QueueJob job(request, file);
  const uint32_t perThread = engine->synchronous ? request.queueDepth : 1;
  const uint32_t depth = engine->synchronous ? 1 : request.queueDepth;
  std::vector<std::unique_ptr<QueueWorker>> workers;
  for (uint32_t i = 0; i < request.threads * perThread; ++i) {
    auto worker = std::make_unique<QueueWorker>();
    worker->depth = depth;
    worker->rng[0] = RandomSeed() | 1;
    worker->rng[1] = RandomSeed();
    worker->stamp = RandomSeed();
    for (uint32_t slot = 0; slot < depth; ++slot) {
      worker->buffers.emplace_back(request.blockSize, kBufferAlignment, true);
      if (!worker->buffers.back().ok()) {
        return fail(MakeError("ENOMEM", "queueDepthRun", request.path,
                              "cannot allocate " +
                                  std::to_string(request.threads * request.queueDepth) +
                                  " buffers of " + std::to_string(request.blockSize) +
                                  " bytes; lower the queue depth or block size"));
      }
      if (request.write)
        FillIncompressible(worker->buffers.back().data(), request.blockSize, worker->stamp + slot);
    }
    workers.push_back(std::move(worker));
  }
  if (Cancelled(request))
    return fail(
        MakeError("ECANCELED", "queueDepthRun", request.path, "the operation was cancelled"));

  const uint64_t start = MonotonicNanos();
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& worker : workers) {
    QueueWorker* w = worker.get();
    threads.emplace_back([&job, engine, w] {
      SysError runError;
      if (!engine->run(job, *w, &runError)) job.Fail(runError);
      w->finished.store(true);
    });
  }

  // Sampling and stopping, on this thread.
  const uint64_t deadline = request.durationNanos ? start + request.durationNanos : UINT64_MAX;
  uint64_t nextSample = start + request.sampleIntervalNanos;
  uint64_t lastAt = start, lastBytes = 0, lastOps = 0;
  auto takeSample = [&](uint64_t now) {
    uint64_t bytes = 0, ops = 0;
    for (auto& w : workers) {
      bytes += w->bytesDone.load(std::memory_order_relaxed);
      ops += w->opsDone.load(std::memory_order_relaxed);
    }
    const double span = static_cast<double>(now - lastAt) / 1e9;
    if (span <= 0) return;
    QueueSampleData sample{static_cast<double>(now - start) / 1e9,
                           static_cast<double>(bytes - lastBytes) / span,
                           static_cast<double>(ops - lastOps) / span};
    out->samples.push_back(sample);
    if (request.onSample) request.onSample(sample);
    lastAt = now;
    lastBytes = bytes;
    lastOps = ops;
  };
  for (;;) {
    bool allDone = true;
    for (auto& w : workers) allDone = allDone && w->finished.load();
    if (allDone) break;
    if (Cancelled(request)) job.Stop();
    uint64_t now = MonotonicNanos();
    if (now >= deadline) job.Stop();
    if (now >= nextSample && !job.ShouldStop()) {
      takeSample(now);
      nextSample += request.sampleIntervalNanos;
      if (nextSample <= now) nextSample = now + request.sampleIntervalNanos;  // fell behind: skip
    }
    const uint64_t wake = std::min({nextSample, deadline, now + kPollNanos});
    if (wake > now) std::this_thread::sleep_for(std::chrono::nanoseconds(wake - now));
  }
  for (auto& t : threads) t.join();
  uint64_t end = MonotonicNanos();
  if (Cancelled(request))
    return fail(
        MakeError("ECANCELED", "queueDepthRun", request.path, "the operation was cancelled"));
  if (job.failed()) return fail(job.error());
  if (request.write) {
    if (!file.Flush(err)) return fail(*err);
    end = MonotonicNanos();
  }
  takeSample(end);  // the last, possibly shorter, interval (includes a write's final flush)
  if (!file.direct()) file.DropCache(request.fileBytes);
  if (!file.Close(err)) return fail(*err);

  for (auto& w : workers) {
    out->latency.Merge(w->latency);
    out->bytes += w->bytesDone.load();
    out->ops += w->opsDone.load();
  }
  out->nanos = end - start;
  out->direct = file.direct();
  out->engine = engine->name;
  return true;
}

}  // namespace plumb
