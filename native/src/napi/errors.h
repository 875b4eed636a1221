// Turning backend failures into JavaScript errors shaped like Node's own (code, syscall, path),
// and paths between JavaScript strings and the backends' bytes.
#pragma once

#include <napi.h>

#include <string>
#include <vector>

#include "plumb.h"

namespace plumb {

Napi::Error ToJsError(Napi::Env env, const SysError& err);

// A path (or text that may quote one) as a JavaScript string, and a string as a path, without
// loss: a name that is not Unicode keeps its bytes (PathToUtf16, plumb.h). A Napi::Value, not a
// Napi::String: Object::Set would turn a Napi::String back into UTF-8 on the way (losing them).
Napi::Value PathToJs(Napi::Env env, const std::string& path);
std::string PathFromJs(const Napi::String& value);

// Argument checking: every bad argument becomes a TypeError, never a crash.
// A non-empty path without NUL bytes.
std::string RequirePath(const Napi::CallbackInfo& info, size_t index, const char* name);
// An array of non-empty paths without NUL bytes.
std::vector<std::string> RequirePathArray(const Napi::CallbackInfo& info, size_t index,
                                          const char* name);
Napi::Object OptionalObject(const Napi::CallbackInfo& info, size_t index, const char* name);

}  // namespace plumb
