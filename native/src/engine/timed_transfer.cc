// timedWrite / timedRead, OS-blind: open, transfer in aligned chunks, flush, close, each phase
// timed from the monotonic clock around the system calls. A write that fails leaves no file.
#include <random>

#include "engine/stamp.h"
#include "io.h"

namespace plumb {

// Measured with `npm run bench:io` (chunk-size table) on ext4/virtio: 1 to 16 MiB were within the
// run-to-run noise for writes, reads peaked at 2-4 MiB. 4 MiB also keeps one chunk short enough
// (8 ms at 500 MB/s) for cancel to stay well under 200 ms on SATA-class drives.
const uint32_t kDefaultChunkBytes = 4u << 20;

namespace {

constexpr uint32_t kWriteSlots = 4;
// A file smaller than a chunk is written from buffers of its own size, rounded up to this (a
// multiple of any direct-I/O alignment met): filling four 4 MiB buffers with random data for each
// 10 KB file took 3.5 ms a file, three quarters of a standard run's writing here.
constexpr uint64_t kSmallFileRounding = 1u << 20;

uint64_t RoundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

uint64_t RandomSeed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device() ^ MonotonicNanos();
}

bool Cancelled(const TimedIoRequest& request) {
  return request.cancel && request.cancel->cancelled.load(std::memory_order_relaxed);
}

SysError CancelledError(const char* syscall, const std::string& path) {
  return MakeError("ECANCELED", syscall, path, "the operation was cancelled");
}

// Adds what to do to the errors people can act on.
SysError WithAdvice(SysError err) {
  if (err.code == "ENOSPC") err.message += " (free some space or choose a smaller test size)";
  if (err.code == "EROFS")
    err.message += " (the volume is mounted read-only; choose a writable folder)";
  if (err.code == "EACCES" || err.code == "EPERM")
    err.message += " (choose a folder you may write to)";
  return err;
}

bool CheckChunk(const IoFile& file, uint32_t chunk, const char* syscall, SysError* err) {
  if (file.direct() && chunk % file.alignment() != 0) {
    *err =
        MakeError("EINVAL", syscall, file.path(),
                  "chunkBytes " + std::to_string(chunk) + " is not a multiple of the " +
                      std::to_string(file.alignment()) + "-byte alignment direct I/O needs here");
    return false;
  }
  return true;
}

// The live view's progress (about every 100 ms) and the analysis's samples (the request's
// cadence), from one clock reading per chunk; a sample costs a slot in a growing vector.
class ProgressClock {
 public:
  ProgressClock(const TimedIoRequest& request, uint64_t start, std::vector<TransferSample>* samples)
      : request_(request), start_(start), last_(start), samples_(samples) {}

  // The transfer begins: the first sample, at no bytes yet.
  void Begin(uint64_t now) {
    if (request_.sampleNanos == 0) return;
    samples_->reserve(64);
    Sample(now, 0);
  }

  void Tick(uint64_t bytesDone) {
    const bool sampling = request_.sampleNanos != 0;
    if (!request_.onProgress && !sampling) return;
    const uint64_t now = MonotonicNanos();
    if (sampling && (now - sampledAt_ >= request_.sampleNanos ||
                     bytesDone - sampledBytes_ >= request_.sampleBytes))
      Sample(now, bytesDone);
    if (!request_.onProgress || now - last_ < kProgressIntervalNanos) return;
    last_ = now;
    request_.onProgress(bytesDone, now - start_);
  }

  // The transfer is over (a write flushed): the last sample ends there, so the time the flush
  // took counts for the bytes before it.
  void End(uint64_t now, uint64_t bytes) {
    if (request_.sampleNanos == 0) return;
    if (samples_->size() > 1 && samples_->back().bytes == bytes)
      samples_->back().nanos = now - start_;
    else
      Sample(now, bytes);
  }

 private:
  void Sample(uint64_t now, uint64_t bytes) {
    samples_->push_back(TransferSample{now - start_, bytes});
    sampledAt_ = now;
    sampledBytes_ = bytes;
  }

  const TimedIoRequest& request_;
  uint64_t start_, last_;
  std::vector<TransferSample>* samples_;
  uint64_t sampledAt_ = 0, sampledBytes_ = 0;
};

}  // namespace

bool RunTimedWrite(const TimedIoRequest& request, TimedIoOutcome* out, SysError* err) {
  const uint32_t chunk = request.chunkBytes ? request.chunkBytes : kDefaultChunkBytes;
  // At least one rounding's worth: an empty file still gets a buffer of an aligned size.
  const uint64_t rounded =
      std::max<uint64_t>(RoundUp(request.bytes, kSmallFileRounding), kSmallFileRounding);
  const size_t slotBytes = static_cast<size_t>(std::min<uint64_t>(chunk, rounded));
  const uint32_t slots =
      static_cast<uint32_t>(std::min<uint64_t>(kWriteSlots, (rounded + chunk - 1) / chunk));
  std::vector<AlignedBuffer> buffers;
  uint64_t stamp = RandomSeed();
  BlockStamper stamper(request.stamp, request.bytes);  // --verify: which file, which offset
  for (uint32_t i = 0; i < slots; ++i) {
    buffers.emplace_back(slotBytes, kBufferAlignment, true);
    if (!buffers.back().ok()) {
      *err =
          MakeError("ENOMEM", "timedWrite", request.path, "cannot allocate the transfer buffers");
      return false;
    }
    FillIncompressible(buffers.back().data(), slotBytes, stamp + i);
    stamper.AddSlot(buffers.back().data(), slotBytes);
  }
  if (Cancelled(request)) {
    *err = CancelledError("timedWrite", request.path);
    return false;
  }

  IoFile file;
  const uint64_t start = MonotonicNanos();
  if (!file.Open(request.path, OpenOptions{FileAccess::kCreateTruncate, request.buffered, false},
                 err)) {
    *err = WithAdvice(*err);
    return false;
  }
  const uint64_t opened = MonotonicNanos();
  auto fail = [&](const SysError& cause) {
    SysError ignored;
    file.Close(&ignored);
    RemoveFile(request.path);
    *err = WithAdvice(cause);
    return false;
  };
  if (!CheckChunk(file, chunk, "timedWrite", err)) return fail(*err);
  if (!CheckChunk(file, static_cast<uint32_t>(slotBytes), "timedWrite", err)) return fail(*err);

  // Direct I/O moves whole aligned blocks: pad the last chunk, then cut the file to size.
  const uint64_t padded = RoundUp(request.bytes, file.direct() ? file.alignment() : 1);
  ProgressClock progress(request, start, &out->samples);
  progress.Begin(opened);
  uint64_t offset = 0;
  for (uint64_t index = 0; offset < padded; ++index) {
    if (Cancelled(request)) return fail(CancelledError("write", request.path));
    const size_t n = static_cast<size_t>(std::min<uint64_t>(slotBytes, padded - offset));
    uint8_t* data = buffers[index % slots].data();
    if (!stamper.Stamp(index % slots, data, n, offset)) StampBlocks(data, n, &stamp);
    if (!file.WriteAt(data, n, offset, err)) return fail(*err);
    offset += n;
    progress.Tick(std::min(offset, request.bytes));
  }
  if (offset != request.bytes && !file.Truncate(request.bytes, err)) return fail(*err);
  const uint64_t transferred = MonotonicNanos();
  if (!file.Flush(err)) return fail(*err);
  if (!file.direct()) file.DropCache(request.bytes);
  const uint64_t flushed = MonotonicNanos();
  progress.End(flushed, request.bytes);
  if (!file.Close(err)) return fail(*err);
  const uint64_t closed = MonotonicNanos();

  out->bytes = request.bytes;
  out->direct = file.direct();
  out->alignment = file.direct() ? file.alignment() : 0;
  out->chunkBytes = chunk;
  out->nanos = PhaseNanos{opened - start, transferred - opened, flushed - transferred,
                          closed - flushed, closed - start};
  return true;
}

bool RunTimedRead(const TimedIoRequest& request, TimedIoOutcome* out, SysError* err) {
  const uint32_t chunk = request.chunkBytes ? request.chunkBytes : kDefaultChunkBytes;
  AlignedBuffer buffer(chunk, kBufferAlignment, true);
  if (!buffer.ok()) {
    *err = MakeError("ENOMEM", "timedRead", request.path, "cannot allocate the transfer buffer");
    return false;
  }
  {
    // Before the clock starts: make the OS forget cached pages of this file (a file just written
    // would otherwise be read from memory where direct I/O is not available).
    IoFile dropper;
    if (!dropper.Open(request.path, OpenOptions{FileAccess::kRead, true, false}, err)) return false;
    uint64_t size = 0;
    if (dropper.Size(&size, err)) dropper.DropCache(size);
    SysError ignored;
    dropper.Close(&ignored);
  }
  if (Cancelled(request)) {
    *err = CancelledError("timedRead", request.path);
    return false;
  }

  IoFile file;
  const uint64_t start = MonotonicNanos();
  if (!file.Open(request.path, OpenOptions{FileAccess::kRead, request.buffered, false}, err))
    return false;
  const uint64_t opened = MonotonicNanos();
  if (!CheckChunk(file, chunk, "timedRead", err)) return false;
  ProgressClock progress(request, start, &out->samples);
  progress.Begin(opened);
  uint64_t offset = 0;
  for (;;) {
    if (Cancelled(request)) {
      *err = CancelledError("read", request.path);
      return false;
    }
    size_t done = 0;
    if (!file.ReadAt(buffer.data(), chunk, offset, &done, err)) return false;
    offset += done;
    progress.Tick(offset);
    if (done < chunk) break;
  }
  const uint64_t transferred = MonotonicNanos();
  progress.End(transferred, offset);
  if (!file.Close(err)) return false;
  const uint64_t closed = MonotonicNanos();

  out->bytes = offset;
  out->direct = file.direct();
  out->alignment = file.direct() ? file.alignment() : 0;
  out->chunkBytes = chunk;
  out->nanos =
      PhaseNanos{opened - start, transferred - opened, 0, closed - transferred, closed - start};
  return true;
}

}  // namespace plumb
