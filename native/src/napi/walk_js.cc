// listFolders(dirs, options): the entries of many folders with their metadata, read on a small
// pool of threads. Per folder, columns instead of an object per entry: names, a kind per entry,
// and 7 numbers per entry (dev, ino, links, size, allocated bytes, mtimeMs, ctimeMs).
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "napi/errors.h"
#include "napi/exports.h"
#include "napi/io_js.h"
#include "napi/promise_worker.h"
#include "walk.h"

namespace plumb {
namespace {

constexpr size_t kNumbersPerEntry = 7;

struct Listing {
  std::vector<FolderEntry> entries;
  SysError err;
  bool ok = false;
};

class ListFoldersWorker : public PromiseWorker {
 public:
  ListFoldersWorker(Napi::Env env, std::vector<std::string> dirs, uint32_t threads,
                    CancelPtr cancel)
      : PromiseWorker(env, "listFolders"),
        dirs_(std::move(dirs)),
        listings_(dirs_.size()),
        threads_(threads),
        cancel_(std::move(cancel)) {}

  void Execute() override {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i = next.fetch_add(1); i < dirs_.size(); i = next.fetch_add(1)) {
        if (cancel_ && cancel_->cancelled.load()) return;
        listings_[i].ok = ListFolder(dirs_[i], &listings_[i].entries, &listings_[i].err);
      }
    };
    const size_t extra = std::min<size_t>(threads_, dirs_.size()) - (dirs_.empty() ? 0 : 1);
    std::vector<std::thread> pool;
    for (size_t i = 0; i < extra; ++i) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (cancel_ && cancel_->cancelled.load()) {
      SysError err = MakeError("ECANCELED", "listFolders", "", "the operation was cancelled");
      deferred.Reject(ToJsError(env, err).Value());
      return;
    }
    Napi::Array result = Napi::Array::New(env, listings_.size());
    for (size_t i = 0; i < listings_.size(); ++i) {
      // A scope per folder and per name (as in scan_js.cc): handles are GC roots until closed.
      Napi::HandleScope folderScope(env);
      const Listing& listing = listings_[i];
      Napi::Object folder = Napi::Object::New(env);
      folder.Set("error", listing.ok ? env.Null() : ToJsError(env, listing.err).Value());
      const size_t count = listing.entries.size();
      Napi::Array names = Napi::Array::New(env, count);
      Napi::Uint8Array kinds = Napi::Uint8Array::New(env, count);
      Napi::Float64Array numbers = Napi::Float64Array::New(env, count * kNumbersPerEntry);
      for (size_t j = 0; j < count; ++j) {
        const FolderEntry& e = listing.entries[j];
        {
          Napi::HandleScope scope(env);
          names.Set(static_cast<uint32_t>(j), PathToJs(env, e.name));
        }
        kinds[j] = static_cast<uint8_t>(e.kind);
        double* n = numbers.Data() + j * kNumbersPerEntry;
        n[0] = static_cast<double>(e.dev);
        n[1] = static_cast<double>(e.ino);
        n[2] = static_cast<double>(e.links);
        n[3] = static_cast<double>(e.size);
        n[4] = static_cast<double>(e.allocatedBytes);
        n[5] = e.mtimeMs;
        n[6] = e.ctimeMs;
      }
      folder.Set("names", names);
      folder.Set("kinds", kinds);
      folder.Set("numbers", numbers);
      result.Set(static_cast<uint32_t>(i), folder);
    }
    listings_.clear();
    deferred.Resolve(result);
  }

  std::vector<std::string> dirs_;
  std::vector<Listing> listings_;
  uint32_t threads_;
  CancelPtr cancel_;
};

Napi::Value ListFolders(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<std::string> dirs = RequirePathArray(info, 0, "dirs");
  Napi::Object options = OptionalObject(info, 1, "options");
  const auto threads = static_cast<uint32_t>(OptionalInteger(options, "threads", 1, 64, 4));
  CancelPtr cancel = OptionalCancel(options, "cancel");
  auto* worker = new ListFoldersWorker(env, std::move(dirs), threads, std::move(cancel));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterWalk(Napi::Env env, Napi::Object exports) {
  exports.Set("listFolders", Napi::Function::New(env, ListFolders, "listFolders"));
}

}  // namespace plumb
