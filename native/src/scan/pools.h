// The thread pools behind content hashing and storage queries, shared by the addon's hashFiles and
// fileSharingMany and by the scan engine (scan/scan.cc). Plain C++: no N-API.
//
// Cancel answers within 100 ms even on a slow disk: a read in flight cannot be interrupted (on a
// throttled USB disk four 1 MiB reads took five seconds to drain), so Run returns at once and the
// pool's threads, which own the engine jointly, finish their current item and go.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "content_hash.h"
#include "engine/detached_pool.h"
#include "io.h"
#include "plumb.h"
#include "space.h"

namespace plumb {

constexpr uint64_t kHashProgressNanos = 100'000'000;

// Where a pool finds the path of its item i: a plain list (hashFiles, fileSharingMany) or the
// scan's walk tables (scan/scan.cc), which build each path when asked instead of holding them
// all. Read concurrently by the pool's threads, and shared with them: after a cancel they may
// outlive the caller.
class PathSource {
 public:
  virtual ~PathSource() = default;
  virtual size_t size() const = 0;
  virtual std::string Path(size_t index) const = 0;
};
using PathSourcePtr = std::shared_ptr<const PathSource>;

class PathList : public PathSource {
 public:
  explicit PathList(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  size_t size() const override { return paths_.size(); }
  std::string Path(size_t index) const override { return paths_[index]; }

 private:
  const std::vector<std::string> paths_;
};

struct HashRequest {
  PathSourcePtr paths;
  size_t readBytes = 1 << 20;  // bytes per read: one buffer of this size per thread, reused
  uint64_t edgeBytes = 0;      // 0: hash the whole file
  uint32_t threads = 4;
  bool dropPages = false;  // leave the page cache as it was (ContentReader::Open)
  CancelPtr cancel;
};

struct FileFailure {
  uint32_t index;
  SysError err;
};

struct HashProgress {
  uint64_t files;
  uint64_t bytes;
};

struct HashOutcome {
  std::vector<uint8_t> digests;  // 16 bytes per path, zeros where the file failed
  std::vector<FileFailure> failures;
  uint64_t bytesRead = 0;
};

class HashEngine : public DetachedPool {
 public:
  explicit HashEngine(HashRequest request)
      : DetachedPool(request.paths->size(), request.cancel), request_(std::move(request)) {
    out_.digests.assign(request_.paths->size() * LaneHash128::kDigestBytes, 0);
  }

  // Hashes everything on the request's threads; the calling thread reports progress until all
  // are done. False as soon as the cancel is seen (then the outcome must not be read).
  bool Hash(const std::function<void(const HashProgress&)>& report) {
    const bool done = Run(request_.threads, std::chrono::nanoseconds(kHashProgressNanos), [&] {
      if (report) report({filesDone_.load(), bytesRead_.load()});
    });
    if (!done) return false;
    out_.bytesRead = bytesRead_.load();
    std::sort(out_.failures.begin(), out_.failures.end(),
              [](const FileFailure& a, const FileFailure& b) { return a.index < b.index; });
    return true;
  }

  // Complete once Hash returned true.
  HashOutcome& outcome() { return out_; }

 private:
  void Serve() override {
    AlignedBuffer buffer(request_.readBytes, kBufferAlignment);
    size_t index = 0;
    while (buffer.ok() && Next(&index)) {
      SysError err;
      if (!HashOne(index, buffer, &err) && !cancelled()) {
        std::lock_guard<std::mutex> lock(mutex_);
        out_.failures.push_back({static_cast<uint32_t>(index), std::move(err)});
      }
      filesDone_.fetch_add(1);
    }
  }

  // Feeds [offset, offset + length) into `hash`, stopping early at end of file.
  bool HashRange(ContentReader& file, const AlignedBuffer& buffer, uint64_t offset, uint64_t length,
                 LaneHash128* hash, SysError* err) {
    while (length > 0) {
      if (cancelled()) return false;
      const size_t want = static_cast<size_t>(std::min<uint64_t>(length, buffer.size()));
      size_t got = 0;
      if (!file.ReadAt(buffer.data(), want, offset, &got, err)) return false;
      hash->Update(buffer.data(), got);
      bytesRead_.fetch_add(got);
      if (got < want) break;
      offset += got;
      length -= got;
    }
    return true;
  }

  bool HashOne(size_t index, const AlignedBuffer& buffer, SysError* err) {
    ContentReader file;
    if (!file.Open(request_.paths->Path(index), err, request_.dropPages)) return false;
    LaneHash128 hash;
    const uint64_t edge = request_.edgeBytes;
    if (edge == 0) {
      if (!HashRange(file, buffer, 0, UINT64_MAX, &hash, err)) return false;
    } else {
      uint64_t size = 0;
      if (!file.Size(&size, err)) return false;
      const uint64_t headEnd = std::min(size, edge);
      const uint64_t tailStart = std::max(headEnd, size > edge ? size - edge : 0);
      if (!HashRange(file, buffer, 0, headEnd, &hash, err)) return false;
      if (!HashRange(file, buffer, tailStart, size - tailStart, &hash, err)) return false;
    }
    if (cancelled()) return false;
    hash.Finish(&out_.digests[index * LaneHash128::kDigestBytes]);
    return true;
  }

  const HashRequest request_;
  HashOutcome out_;
  std::atomic<uint64_t> filesDone_{0};
  std::atomic<uint64_t> bytesRead_{0};
};

struct SharingAnswers {
  std::vector<FileSharing> sharing;
  std::vector<uint8_t> failed;
};

class SharingEngine : public DetachedPool {
 public:
  SharingEngine(PathSourcePtr paths, CancelPtr cancel)
      : DetachedPool(paths->size(), std::move(cancel)), paths_(std::move(paths)) {
    answers_.sharing.resize(paths_->size());
    answers_.failed.assign(paths_->size(), 0);
  }

  // Complete once Run returned true.
  SharingAnswers& answers() { return answers_; }

 private:
  void Process(size_t index) override {
    SysError err;
    if (!QueryFileSharing(paths_->Path(index), &answers_.sharing[index], &err)) {
      answers_.sharing[index] = FileSharing{};
      answers_.failed[index] = 1;
    }
  }

  const PathSourcePtr paths_;
  SharingAnswers answers_;
};

}  // namespace plumb
