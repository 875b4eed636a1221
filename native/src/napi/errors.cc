#include "napi/errors.h"

namespace plumb {

Napi::Error ToJsError(Napi::Env env, const SysError& err) {
  std::string text = err.code + ": " + err.message + ", " + err.syscall;
  if (!err.path.empty()) text += " '" + err.path + "'";
  Napi::Error error = Napi::Error::New(env, text);
  // A name that is not UTF-8 keeps its bytes, which New's UTF-8 reading would replace.
  if (!PathIsUtf8(text)) error.Set("message", PathToJs(env, text));
  error.Set("code", Napi::String::New(env, err.code));
  error.Set("syscall", Napi::String::New(env, err.syscall));
  if (!err.path.empty()) error.Set("path", PathToJs(env, err.path));
  return error;
}

Napi::Value PathToJs(Napi::Env env, const std::string& path) {
  // Most paths are UTF-8, which V8 reads itself (into one byte a character where it can).
  if (PathIsUtf8(path)) return Napi::String::New(env, path);
  return Napi::String::New(env, PathToUtf16(path));
}

std::string PathFromJs(const Napi::String& value) { return PathFromUtf16(value.Utf16Value()); }

std::string RequirePath(const Napi::CallbackInfo& info, size_t index, const char* name) {
  if (info.Length() <= index || !info[index].IsString()) {
    throw Napi::TypeError::New(info.Env(),
                               std::string("The \"") + name + "\" argument must be a string");
  }
  std::string value = PathFromJs(info[index].As<Napi::String>());
  if (value.empty() || value.find('\0') != std::string::npos) {
    throw Napi::TypeError::New(
        info.Env(), std::string("The \"") + name + "\" argument must be a non-empty path");
  }
  return value;
}

std::vector<std::string> RequirePathArray(const Napi::CallbackInfo& info, size_t index,
                                          const char* name) {
  Napi::Env env = info.Env();
  const std::string notArray =
      std::string("The \"") + name + "\" argument must be an array of strings";
  if (info.Length() <= index || !info[index].IsArray()) throw Napi::TypeError::New(env, notArray);
  Napi::Array list = info[index].As<Napi::Array>();
  if (list.Length() > UINT32_MAX / 2) {
    throw Napi::RangeError::New(env,
                                std::string("The \"") + name + "\" argument has too many entries");
  }
  std::vector<std::string> paths;
  paths.reserve(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Value item = list.Get(i);
    if (!item.IsString()) throw Napi::TypeError::New(env, notArray);
    std::string path = PathFromJs(item.As<Napi::String>());
    if (path.empty() || path.find('\0') != std::string::npos) {
      throw Napi::TypeError::New(env, std::string("Every entry of \"") + name +
                                          "\" must be a non-empty path without NUL bytes");
    }
    paths.push_back(std::move(path));
  }
  return paths;
}

Napi::Object OptionalObject(const Napi::CallbackInfo& info, size_t index, const char* name) {
  if (info.Length() <= index || info[index].IsUndefined() || info[index].IsNull()) {
    return Napi::Object::New(info.Env());
  }
  if (!info[index].IsObject() || info[index].IsArray()) {
    throw Napi::TypeError::New(info.Env(),
                               std::string("The \"") + name + "\" argument must be an object");
  }
  return info[index].As<Napi::Object>();
}

}  // namespace plumb
