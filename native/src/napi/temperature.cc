// driveTemperature(path): °C of the drive holding `path`, or null where it cannot be read.
#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/promise_worker.h"

namespace plumb {
namespace {

class TemperatureWorker : public PromiseWorker {
 public:
  TemperatureWorker(Napi::Env env, std::string path)
      : PromiseWorker(env, "driveTemperature"), path_(std::move(path)) {}

  void Execute() override { known_ = ReadDriveTemperature(path_, &celsius_, &err_); }

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!err_.ok()) return deferred.Reject(ToJsError(env, err_).Value());
    deferred.Resolve(known_ ? Napi::Number::New(env, celsius_) : env.Null());
  }

  std::string path_;
  double celsius_ = 0;
  bool known_ = false;
  SysError err_;
};

Napi::Value DriveTemperature(const Napi::CallbackInfo& info) {
  auto* worker = new TemperatureWorker(info.Env(), RequirePath(info, 0, "path"));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterTemperature(Napi::Env env, Napi::Object exports) {
  exports.Set("driveTemperature", Napi::Function::New(env, DriveTemperature, "driveTemperature"));
}

void RegisterIo(Napi::Env env, Napi::Object exports) {
  RegisterCancel(env, exports);
  RegisterTimedIo(env, exports);
  RegisterQueueDepth(env, exports);
  RegisterTemperature(env, exports);
  RegisterEvictCache(env, exports);
  RegisterVerify(env, exports);
}

}  // namespace plumb
