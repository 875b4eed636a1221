// Entry point of the Plumb addon: N-API only, so one binary loads in Node and Electron.
#include <napi.h>

#include "napi/exports.h"
#include "plumb.h"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  plumb::KeepLibraryLoaded();
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  plumb::RegisterVolume(env, exports);
  plumb::RegisterSpace(env, exports);
  plumb::RegisterSharingMany(env, exports);
  plumb::RegisterIo(env, exports);
  plumb::RegisterContentHash(env, exports);
  plumb::RegisterWalk(env, exports);
  plumb::RegisterScan(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(plumb, Init)
