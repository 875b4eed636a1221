// fileSharingMany(paths, options): QueryFileSharing (FIEMAP, clone ids, ReFS extents: whatever this
// OS's space backend answers) for many files in one call, on a small pool of threads, with the
// answers in columns instead of an object per file and per extent:
//   failed          Uint8Array    1 where the file could not be asked (everything else unknown)
//   allocatedBytes  Float64Array
//   privateBytes    Float64Array  NaN where unknown
//   compressed      Uint8Array    0 no, 1 yes, 2 unknown
//   cloneIds        (string | null)[]
//   extentStarts    Uint32Array   n + 1 entries: file i's extents are rows extentStarts[i] ...
//                                 extentStarts[i + 1] - 1; none when hasExtents[i] is 0
//   hasExtents      Uint8Array    0 where the OS has no extent map for the file (unknown)
//   extents         Float64Array  3 numbers per row: physical offset, length, shared (0 or 1)
//
// Cancel answers within 100 ms: the pool's threads own the work jointly (as in hashFiles), so the
// promise rejects at once and a query in flight finishes in the background.
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "napi/errors.h"
#include "napi/exports.h"
#include "napi/io_js.h"
#include "napi/promise_worker.h"
#include "scan/pools.h"
#include "space.h"

namespace plumb {
namespace {

constexpr auto kCancelPoll = std::chrono::milliseconds(50);

class SharingManyWorker : public PromiseWorker {
 public:
  SharingManyWorker(Napi::Env env, std::vector<std::string> paths, uint32_t threads,
                    CancelPtr cancel)
      : PromiseWorker(env, "fileSharingMany"),
        paths_(std::move(paths)),
        threads_(threads),
        cancel_(std::move(cancel)) {}

  void Execute() override {
    if (paths_.empty()) return;
    auto engine =
        std::make_shared<SharingEngine>(std::make_shared<PathList>(std::move(paths_)), cancel_);
    if (!engine->Run(threads_, kCancelPoll)) {
      cancelled_ = true;
      return;
    }
    answers_ = std::move(engine->answers());
  }

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (cancelled_) {
      SysError err = MakeError("ECANCELED", "fileSharingMany", "", "the operation was cancelled");
      deferred.Reject(ToJsError(env, err).Value());
      return;
    }
    const size_t count = answers_.sharing.size();
    size_t rows = 0;
    for (const FileSharing& s : answers_.sharing)
      if (s.extents) rows += s.extents->size();
    if (rows > std::numeric_limits<uint32_t>::max()) {
      deferred.Reject(Napi::RangeError::New(env, "fileSharingMany: too many extents").Value());
      return;
    }
    Napi::Uint8Array failed = Napi::Uint8Array::New(env, count);
    Napi::Float64Array allocated = Napi::Float64Array::New(env, count);
    Napi::Float64Array privateBytes = Napi::Float64Array::New(env, count);
    Napi::Uint8Array compressed = Napi::Uint8Array::New(env, count);
    Napi::Array cloneIds = Napi::Array::New(env, count);
    Napi::Uint32Array starts = Napi::Uint32Array::New(env, count + 1);
    Napi::Uint8Array hasExtents = Napi::Uint8Array::New(env, count);
    Napi::Float64Array extents = Napi::Float64Array::New(env, rows * 3);
    size_t row = 0;
    for (size_t i = 0; i < count; ++i) {
      const FileSharing& s = answers_.sharing[i];
      failed[i] = answers_.failed[i];
      allocated[i] = static_cast<double>(s.allocatedBytes);
      privateBytes[i] = s.privateBytes ? static_cast<double>(*s.privateBytes)
                                       : std::numeric_limits<double>::quiet_NaN();
      compressed[i] = s.compressed ? (*s.compressed ? 1 : 0) : 2;
      {
        Napi::HandleScope scope(env);  // handles are GC roots until closed (see scan_js.cc)
        cloneIds.Set(
            static_cast<uint32_t>(i),
            s.cloneId ? static_cast<Napi::Value>(Napi::String::New(env, *s.cloneId)) : env.Null());
      }
      starts[i] = static_cast<uint32_t>(row);
      hasExtents[i] = s.extents ? 1 : 0;
      if (!s.extents) continue;
      for (const FileExtent& e : *s.extents) {
        double* out = extents.Data() + row * 3;
        out[0] = static_cast<double>(e.physical);
        out[1] = static_cast<double>(e.length);
        out[2] = e.shared ? 1 : 0;
        ++row;
      }
    }
    starts[count] = static_cast<uint32_t>(row);
    answers_ = SharingAnswers{};
    Napi::Object result = Napi::Object::New(env);
    result.Set("failed", failed);
    result.Set("allocatedBytes", allocated);
    result.Set("privateBytes", privateBytes);
    result.Set("compressed", compressed);
    result.Set("cloneIds", cloneIds);
    result.Set("extentStarts", starts);
    result.Set("hasExtents", hasExtents);
    result.Set("extents", extents);
    deferred.Resolve(result);
  }

  std::vector<std::string> paths_;  // moved to the engine when the work starts
  uint32_t threads_;
  CancelPtr cancel_;
  SharingAnswers answers_;
  bool cancelled_ = false;
};

Napi::Value FileSharingMany(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<std::string> paths = RequirePathArray(info, 0, "paths");
  Napi::Object options = OptionalObject(info, 1, "options");
  const auto threads = static_cast<uint32_t>(OptionalInteger(options, "threads", 1, 64, 4));
  CancelPtr cancel = OptionalCancel(options, "cancel");
  if (cancel && cancel->cancelled.load()) {
    SysError err = MakeError("ECANCELED", "fileSharingMany", "", "the operation was cancelled");
    Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
    deferred.Reject(ToJsError(env, err).Value());
    return deferred.Promise();
  }
  auto* worker = new SharingManyWorker(env, std::move(paths), threads, std::move(cancel));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterSharingMany(Napi::Env env, Napi::Object exports) {
  exports.Set("fileSharingMany", Napi::Function::New(env, FileSharingMany, "fileSharingMany"));
}

}  // namespace plumb
