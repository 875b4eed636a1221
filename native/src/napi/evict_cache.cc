// evictCache(paths): makes the OS forget the cached pages of files about to be read, before a read
// phase (seed 004: F_NOCACHE reads on Apple silicon can still come from memory), and says how.
#include "io.h"
#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/promise_worker.h"

namespace plumb {
namespace {

class EvictWorker : public PromiseWorker {
 public:
  EvictWorker(Napi::Env env, std::vector<std::string> paths)
      : PromiseWorker(env, "evictCache"), paths_(std::move(paths)) {}

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

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!err_.ok()) return deferred.Reject(ToJsError(env, err_).Value());
    Napi::Object result = Napi::Object::New(env);
    result.Set("method", CacheEvictionMethod());
    result.Set("files", Napi::Number::New(env, static_cast<double>(files_)));
    deferred.Resolve(result);
  }

  std::vector<std::string> paths_;
  size_t files_ = 0;
  SysError err_;
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
