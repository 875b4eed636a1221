// driveTemperature(path): °C of the drive holding `path`, or null where it cannot be read.
#include "napi/errors.h"
#include "napi/io_js.h"

namespace plumb {
namespace {

class TemperatureWorker : public Napi::AsyncWorker {
 public:
  TemperatureWorker(Napi::Env env, std::string path)
      : Napi::AsyncWorker(env),
        path_(std::move(path)),
        deferred_(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }

  void Execute() override { known_ = ReadDriveTemperature(path_, &celsius_, &err_); }
  void OnOK() override {
    if (!err_.ok()) return deferred_.Reject(ToJsError(Env(), err_).Value());
    deferred_.Resolve(known_ ? Napi::Number::New(Env(), celsius_) : Env().Null());
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  std::string path_;
  double celsius_ = 0;
  bool known_ = false;
  SysError err_;
  Napi::Promise::Deferred deferred_;
};

Napi::Value DriveTemperature(const Napi::CallbackInfo& info) {
  auto* worker = new TemperatureWorker(info.Env(), RequireString(info, 0, "path"));
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
