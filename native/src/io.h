// The contract between the OS-blind I/O engines (engine/) and the per-OS file backends
// (posix/file.cc with linux|darwin/uncached.cc, win/file.cc). Plain C++, no N-API.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "plumb.h"

namespace plumb {

// Nanoseconds from the OS monotonic clock (CLOCK_MONOTONIC, mach continuous time, QPC).
inline uint64_t MonotonicNanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// An error that is not an OS error number (cancelled, bad option), same shape as the others.
inline SysError MakeError(const char* code, const char* syscall, const std::string& path,
                          std::string message) {
  return SysError{code, syscall, path, std::move(message)};
}

// A cancel switch shared between JavaScript and native work.
struct CancelFlag {
  std::atomic<bool> cancelled{false};
};
using CancelPtr = std::shared_ptr<CancelFlag>;

// Per-OS: page-aligned memory for direct I/O (posix_memalign, VirtualAlloc). `transfer`: a buffer
// the kernel pins for every direct transfer; Linux backs it with huge pages where it can, so one
// 1 MiB transfer pins one page instead of 256 (measured: direct 1 MiB reads 1.46x faster).
void* AllocateAligned(size_t bytes, size_t alignment, bool transfer = false);
void FreeAligned(void* data, size_t bytes);

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(size_t bytes, size_t alignment, bool transfer = false)
      : data_(AllocateAligned(bytes, alignment, transfer)), size_(bytes) {}
  AlignedBuffer(AlignedBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() {
    if (data_) FreeAligned(data_, size_);
  }
  uint8_t* data() const { return static_cast<uint8_t*>(data_); }
  size_t size() const { return size_; }
  bool ok() const { return data_ != nullptr; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Buffers are aligned to at least this, which satisfies every direct-I/O memory alignment we meet.
constexpr size_t kBufferAlignment = 4096;

// Incompressible data: a process-wide pool of random bytes made once; buffers are filled from it at
// rotating offsets, and each 4 KiB block gets a unique stamp so no two written blocks are equal.
void FillIncompressible(uint8_t* data, size_t bytes, uint64_t rotation);
void StampBlocks(uint8_t* data, size_t bytes, uint64_t* sequence);

enum class FileAccess {
  kCreateTruncate,  // write a new file (timedWrite)
  kRead,            // read an existing file
  kReadWrite,       // create if missing, keep contents (queue-depth test file)
};

struct OpenOptions {
  FileAccess access = FileAccess::kRead;
  bool buffered = false;    // do not even try direct I/O
  bool overlapped = false;  // Windows: FILE_FLAG_OVERLAPPED for the queue-depth engine
};

// An open file for timed I/O. Uncached where the file system allows, else buffered (direct()
// false).
class IoFile {
 public:
  IoFile() = default;
  IoFile(const IoFile&) = delete;
  IoFile& operator=(const IoFile&) = delete;
  ~IoFile();  // closes quietly if still open

  bool Open(const std::string& path, const OpenOptions& options, SysError* err);
  bool direct() const { return direct_; }
  // Offset and length alignment direct I/O needs here, bytes (1 when buffered).
  uint32_t alignment() const { return alignment_; }
  const std::string& path() const { return path_; }
  // The OS handle (fd, or HANDLE cast to an integer) for the queue-depth engines.
  intptr_t handle() const { return handle_; }

  // Whole transfers: short writes continue; reads stop early only at end of file (*done < bytes).
  bool WriteAt(const void* data, size_t bytes, uint64_t offset, SysError* err);
  bool ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err);
  // Data and the drive's write cache to stable storage (fdatasync, F_FULLFSYNC, FlushFileBuffers).
  bool Flush(SysError* err);
  // Asks the OS to forget this file's cached pages so the next read comes from the drive.
  void DropCache(uint64_t bytes);
  bool Size(uint64_t* bytes, SysError* err);
  bool Truncate(uint64_t bytes, SysError* err);
  bool Close(SysError* err);

 private:
  bool RefuseDirect();

  intptr_t handle_ = -1;
  bool direct_ = false;
  std::atomic<bool> transferred_{false};
  uint32_t alignment_ = 1;
  std::string path_;
};

// Per-OS: removes a file; true when it is gone.
bool RemoveFile(const std::string& path);
bool FileExists(const std::string& path);
// Per-OS: how DropCache makes the OS forget a file's pages, in words for the results document.
const char* CacheEvictionMethod();

// ---- timedWrite / timedRead -------------------------------------------------------------------

// The sampler's cadence: 4 samples a second, or one per 20 MiB on a drive fast enough to move
// more than that in a quarter of a second.
constexpr uint64_t kDefaultSampleNanos = 250'000'000;
constexpr uint64_t kDefaultSampleBytes = 20ull << 20;
// timedWrite's `stamp` option: which file and run each 4 KiB block says it belongs to (stamp.h).
struct StampSpec {
  bool enabled = false;
  uint32_t fileId = 0;
  uint32_t runTag = 0;
};

struct TimedIoRequest {
  std::string path;
  uint64_t bytes = 0;       // timedWrite only
  StampSpec stamp;          // timedWrite only
  uint32_t chunkBytes = 0;  // 0: kDefaultChunkBytes
  bool buffered = false;
  CancelPtr cancel;
  // Called on the worker thread about every 100 ms.
  std::function<void(uint64_t bytesDone, uint64_t nanos)> onProgress;
  // Progress samples inside the file: one at least every sampleNanos or every sampleBytes,
  // whichever comes first (0 nanos: no samples at all, for measuring what sampling costs).
  uint64_t sampleNanos = kDefaultSampleNanos;
  uint64_t sampleBytes = kDefaultSampleBytes;
};

// One progress sample: nanoseconds since the call began, bytes of the file moved by then.
struct TransferSample {
  uint64_t nanos;
  uint64_t bytes;
};

struct PhaseNanos {
  uint64_t open = 0, transfer = 0, flush = 0, close = 0, total = 0;
};

struct TimedIoOutcome {
  uint64_t bytes = 0;
  bool direct = false;
  uint32_t alignment = 0;
  uint32_t chunkBytes = 0;
  PhaseNanos nanos;
  // At the start of the transfer (bytes 0), at the sampler's cadence inside it, and at its end
  // (after the flush of a write), in order. Empty when sampling was off.
  std::vector<TransferSample> samples;
};

// Chosen by measurement (npm run bench:io, "chunk size" table): see timed_transfer.cc.
extern const uint32_t kDefaultChunkBytes;
constexpr uint64_t kProgressIntervalNanos = 100'000'000;

bool RunTimedWrite(const TimedIoRequest& request, TimedIoOutcome* out, SysError* err);
bool RunTimedRead(const TimedIoRequest& request, TimedIoOutcome* out, SysError* err);

// ---- queue-depth runs -------------------------------------------------------------------------

// Completion latencies in nanoseconds, log-linear buckets (64 per power of two: < 1.6 % error).
class LatencyHistogram {
 public:
  LatencyHistogram();
  void Record(uint64_t nanos);
  void Merge(const LatencyHistogram& other);
  // The value below which `fraction` of the samples lie (bucket midpoint), nanoseconds.
  uint64_t Percentile(double fraction) const;
  uint64_t count() const { return count_; }
  double MeanNanos() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0;
  }
  uint64_t max() const { return max_; }

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

struct QueueSampleData {
  double t = 0;  // seconds since start, at the end of the sample
  double bytesPerSecond = 0;
  double iops = 0;
};

struct QueueRequest {
  std::string path;
  bool write = false;
  bool random = false;
  uint32_t blockSize = 0;
  uint32_t queueDepth = 1;
  uint32_t threads = 1;
  uint64_t fileBytes = 0;
  uint64_t durationNanos = 0;  // 0: no time limit
  uint64_t totalBytes = 0;     // 0: no byte limit
  uint64_t sampleIntervalNanos = 100'000'000;
  bool buffered = false;
  std::string engine;  // empty: the best available; else exactly this one
  CancelPtr cancel;
  std::function<void(const QueueSampleData&)> onSample;  // worker thread, one call per sample
};

struct QueueOutcome {
  uint64_t bytes = 0, ops = 0, nanos = 0;
  LatencyHistogram latency;
  std::vector<QueueSampleData> samples;
  bool direct = false;
  std::string engine;
};

class QueueJob;

// One submitter: `depth` requests in flight, its own buffers, histogram and counters.
struct alignas(64) QueueWorker {
  uint32_t depth = 1;
  std::vector<AlignedBuffer> buffers;  // `depth` buffers of blockSize
  LatencyHistogram latency;
  uint64_t rng[2] = {0, 0};
  uint64_t stamp = 0;
  alignas(64) std::atomic<uint64_t> bytesDone{0};
  std::atomic<uint64_t> opsDone{0};
  std::atomic<bool> finished{false};
};

// The state of one run that engines see: what to do next, and where results go.
class QueueJob {
 public:
  QueueJob(const QueueRequest& request, IoFile& file);
  const QueueRequest& request() const { return request_; }
  IoFile& file() const { return file_; }
  bool ShouldStop() const { return stop_.load(std::memory_order_relaxed); }
  void Stop() { stop_.store(true, std::memory_order_relaxed); }
  // The next request's offset; false when the byte budget is spent or the run is stopping.
  bool Claim(QueueWorker& worker, uint64_t* offset);
  // Before a write is submitted: fresh stamps so every written block is unique.
  void PrepareBuffer(QueueWorker& worker, uint8_t* data) {
    if (request_.write) StampBlocks(data, request_.blockSize, &worker.stamp);
  }
  void Complete(QueueWorker& worker, uint64_t latencyNanos) {
    worker.latency.Record(latencyNanos);
    worker.bytesDone.fetch_add(request_.blockSize, std::memory_order_relaxed);
    worker.opsDone.fetch_add(1, std::memory_order_relaxed);
  }
  // The first error wins and stops the run.
  void Fail(const SysError& err);
  bool failed() const { return failed_.load(); }
  const SysError& error() const { return error_; }

 private:
  const QueueRequest& request_;
  IoFile& file_;
  uint64_t blocks_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> nextBlock_{0};
  std::atomic<uint64_t> claimedBytes_{0};
  std::atomic<bool> failed_{false};
  SysError error_;
};

// A way to keep requests in flight: per-OS ones (io_uring, libaio, overlapped) and portable
// threads.
struct QueueEngine {
  const char* name;
  // Whether it runs here, for direct or buffered I/O (probed once at runtime).
  bool (*available)(bool direct);
  // Runs one worker until the job stops; false with `err` on a failure.
  bool (*run)(QueueJob& job, QueueWorker& worker, SysError* err);
  // true: one request in flight per worker, so the caller starts queueDepth workers per thread.
  bool synchronous;
};

// Per-OS: the engines to try, best first (the portable threads engine is tried after them).
const std::vector<const QueueEngine*>& PlatformQueueEngines();
extern const QueueEngine kThreadsEngine;

bool RunQueueDepth(const QueueRequest& request, QueueOutcome* out, SysError* err);

// ---- drive temperature ------------------------------------------------------------------------

// Per-OS: °C of the drive holding `path`, where readable without privileges; false when unknown.
bool ReadDriveTemperature(const std::string& path, double* celsius, SysError* err);

}  // namespace plumb
