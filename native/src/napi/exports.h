// Each concern registers its functions on the addon's exports; addon.cc calls them all.
#pragma once

#include <napi.h>

namespace plumb {

void RegisterVolume(Napi::Env env, Napi::Object exports);
void RegisterSpace(Napi::Env env, Napi::Object exports);
void RegisterSharingMany(Napi::Env env, Napi::Object exports);
void RegisterIo(Napi::Env env, Napi::Object exports);
void RegisterContentHash(Napi::Env env, Napi::Object exports);
void RegisterWalk(Napi::Env env, Napi::Object exports);
void RegisterScan(Napi::Env env, Napi::Object exports);

}  // namespace plumb
