// createCancel(): a handle whose cancel() flips a flag native work polls. The object is type-tagged
// so no other object can be passed off as one.
#include "napi/io_js.h"

namespace plumb {
namespace {

const napi_type_tag kCancelTag = {0x706c756d6263616eull, 0x63656c68616e646cull};

class CancelHandle : public Napi::ObjectWrap<CancelHandle> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "CancelHandle",
                       {InstanceMethod<&CancelHandle::Cancel>("cancel"),
                        InstanceAccessor<&CancelHandle::Cancelled>("cancelled")});
  }
  explicit CancelHandle(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<CancelHandle>(info), flag_(std::make_shared<CancelFlag>()) {
    info.This().As<Napi::Object>().TypeTag(&kCancelTag);
  }
  const CancelPtr& flag() const { return flag_; }

 private:
  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    flag_->cancelled.store(true);
    return info.Env().Undefined();
  }
  Napi::Value Cancelled(const Napi::CallbackInfo& info) {
    return Napi::Boolean::New(info.Env(), flag_->cancelled.load());
  }
  CancelPtr flag_;
};

Napi::Value CreateCancel(const Napi::CallbackInfo& info) {
  auto* constructor = static_cast<Napi::FunctionReference*>(info.Data());
  return constructor->New({});
}

}  // namespace

CancelPtr CancelFromValue(Napi::Env env, Napi::Value value, const char* name) {
  if (!value.IsObject() || !value.As<Napi::Object>().CheckTypeTag(&kCancelTag)) {
    throw Napi::TypeError::New(
        env, std::string("The \"") + name + "\" option must be a handle from createCancel()");
  }
  return CancelHandle::Unwrap(value.As<Napi::Object>())->flag();
}

void RegisterCancel(Napi::Env env, Napi::Object exports) {
  // The constructor lives as long as this environment (Node worker threads each get their own).
  auto* constructor = new Napi::FunctionReference(Napi::Persistent(CancelHandle::Define(env)));
  env.AddCleanupHook([constructor] { delete constructor; });
  exports.Set("createCancel", Napi::Function::New(env, CreateCancel, "createCancel", constructor));
}

}  // namespace plumb
