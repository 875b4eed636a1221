// volumeInfo(path): facts about the volume holding a path, from the per-OS QueryVolume.
#include <napi.h>

#include "napi/errors.h"
#include "napi/exports.h"
#include "napi/promise_worker.h"
#include "plumb.h"

namespace plumb {
namespace {

template <typename T, typename Make>
Napi::Value OrNull(Napi::Env env, const std::optional<T>& value, Make make) {
  return value ? make(env, *value) : env.Null();
}

Napi::Value Str(Napi::Env env, const std::string& s) { return PathToJs(env, s); }
Napi::Value Bool(Napi::Env env, bool b) { return Napi::Boolean::New(env, b); }
Napi::Value Num(Napi::Env env, double d) { return Napi::Number::New(env, d); }

Napi::Object ToJs(Napi::Env env, const VolumeFacts& v) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("path", Str(env, v.path));
  o.Set("fsType", OrNull(env, v.fsType, Str));
  o.Set("mountPoint", OrNull(env, v.mountPoint, Str));
  o.Set("device", OrNull(env, v.device, Str));
  o.Set("totalBytes", Num(env, static_cast<double>(v.totalBytes)));
  o.Set("freeBytes", Num(env, static_cast<double>(v.freeBytes)));
  o.Set("availableBytes", Num(env, static_cast<double>(v.availableBytes)));
  o.Set("blockSize", Num(env, v.blockSize));
  o.Set("directIoAlignment",
        OrNull(env, v.directIoAlignment, [](Napi::Env e, uint32_t a) { return Num(e, a); }));
  o.Set("supportsClones", OrNull(env, v.supportsClones, Bool));
  o.Set("supportsSparse", OrNull(env, v.supportsSparse, Bool));
  o.Set("rotational", OrNull(env, v.rotational, Bool));
  o.Set("bus", OrNull(env, v.bus, Str));
  o.Set("medium", OrNull(env, v.medium, Str));
  o.Set("internal", OrNull(env, v.internal, Bool));
  o.Set("readOnly", OrNull(env, v.readOnly, Bool));
  return o;
}

class VolumeWorker : public PromiseWorker {
 public:
  VolumeWorker(Napi::Env env, std::string path)
      : PromiseWorker(env, "volumeInfo"), path_(std::move(path)) {}

  void Execute() override {
    if (!QueryVolume(path_, &facts_, &err_) && err_.ok())
      err_ = MakeSysError(0, "volumeInfo", path_);
  }

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!err_.ok()) {
      deferred.Reject(ToJsError(env, err_).Value());
    } else {
      deferred.Resolve(ToJs(env, facts_));
    }
  }

  std::string path_;
  VolumeFacts facts_;
  SysError err_;
};

Napi::Value VolumeInfo(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  auto* worker = new VolumeWorker(info.Env(), path);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

void RegisterVolume(Napi::Env env, Napi::Object exports) {
  exports.Set("volumeInfo", Napi::Function::New(env, VolumeInfo, "volumeInfo"));
}

}  // namespace plumb
