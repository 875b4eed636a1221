// Turning backend failures into JavaScript errors shaped like Node's own (code, syscall, path).
#pragma once

#include <napi.h>

#include <string>
#include <vector>

#include "plumb.h"

namespace plumb {

Napi::Error ToJsError(Napi::Env env, const SysError& err);

// Argument checking: every bad argument becomes a TypeError, never a crash.
std::string RequireString(const Napi::CallbackInfo& info, size_t index, const char* name);
// An array of non-empty paths without NUL bytes.
std::vector<std::string> RequirePathArray(const Napi::CallbackInfo& info, size_t index,
                                          const char* name);
Napi::Object OptionalObject(const Napi::CallbackInfo& info, size_t index, const char* name);

}  // namespace plumb
