// evictCache(paths): makes the OS forget the cached pages of files about to be read, before a read
// phase (seed 004: F_NOCACHE reads on Apple silicon can still come from memory), and says how.
#include "io.h"
#include "napi/errors.h"
#include "napi/io_js.h"

namespace plumb {
namespace {

class EvictWorker : public Napi::AsyncWorker {
 public:
  EvictWorker(Napi::Env env, std::vector<std::string> paths)
      : Napi::AsyncWorker(env),
        paths_(std::move(paths)),
        deferred_(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }

  void Execute() override {
    for (const std::string& path : paths_) {
      IoFile file;  // opened buffered: the pages to drop are the OS cache's
      uint64_t size = 0;
      if (!file.Open(path, OpenOptions{FileAccess::kRead, true, false}, &err_) ||
          !file.Size(&size, &err_)) {
        return;
      }
      file.DropCache(size);
      SysError ignored;
      file.Close(&ignored);
      ++files_;
    }
  }
  void OnOK() override {
    if (!err_.ok()) return deferred_.Reject(ToJsError(Env(), err_).Value());
    Napi::Object result = Napi::Object::New(Env());
    result.Set("method", CacheEvictionMethod());
    result.Set("files", Napi::Number::New(Env(), static_cast<double>(files_)));
    deferred_.Resolve(result);
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  std::vector<std::string> paths_;
  size_t files_ = 0;
  SysError err_;
  Napi::Promise::Deferred deferred_;
};

Napi::Value EvictCache(const Napi::CallbackInfo& info) {
  auto* worker = new EvictWorker(info.Env(), RequirePathArray(info, 0, "paths"));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterEvictCache(Napi::Env env, Napi::Object exports) {
  exports.Set("evictCache", Napi::Function::New(env, EvictCache, "evictCache"));
}

}  // namespace plumb
