// Reading the options objects of the I/O functions: every wrong type or range is a TypeError
// naming the option and what it must be.
#include <cmath>

#include "napi/io_js.h"

namespace plumb {
namespace {

[[noreturn]] void Bad(Napi::Env env, const char* key, const std::string& must) {
  throw Napi::TypeError::New(env, std::string("The \"") + key + "\" option must be " + must);
}

}  // namespace

bool IsAbsent(Napi::Value value) { return value.IsUndefined() || value.IsNull(); }

uint64_t OptionalInteger(Napi::Object options, const char* key, uint64_t min, uint64_t max,
                         uint64_t fallback) {
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return fallback;
  const std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (!value.IsNumber()) Bad(options.Env(), key, range);
  const double number = value.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(number) || number != std::floor(number) || number < static_cast<double>(min) ||
      number > static_cast<double>(max)) {
    Bad(options.Env(), key, range);
  }
  return static_cast<uint64_t>(number);
}

double OptionalNumber(Napi::Object options, const char* key, double min, double max,
                      double fallback) {
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return fallback;
  const std::string range = "a number from " + std::to_string(min) + " to " + std::to_string(max);
  if (!value.IsNumber()) Bad(options.Env(), key, range);
  const double number = value.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(number) || number < min || number > max) Bad(options.Env(), key, range);
  return number;
}

bool OptionalBool(Napi::Object options, const char* key, bool fallback) {
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return fallback;
  if (!value.IsBoolean()) Bad(options.Env(), key, "a boolean");
  return value.As<Napi::Boolean>().Value();
}

Napi::Function OptionalFunction(Napi::Object options, const char* key) {
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return Napi::Function();
  if (!value.IsFunction()) Bad(options.Env(), key, "a function");
  return value.As<Napi::Function>();
}

CancelPtr OptionalCancel(Napi::Object options, const char* key) {
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return nullptr;
  return CancelFromValue(options.Env(), value, key);
}

}  // namespace plumb
