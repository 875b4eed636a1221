// N-API glue for timed I/O, queue-depth runs, cancel handles and drive temperature.
#pragma once

#include <napi.h>

#include "io.h"

namespace plumb {

void RegisterCancel(Napi::Env env, Napi::Object exports);
void RegisterTimedIo(Napi::Env env, Napi::Object exports);
void RegisterQueueDepth(Napi::Env env, Napi::Object exports);
void RegisterTemperature(Napi::Env env, Napi::Object exports);
void RegisterEvictCache(Napi::Env env, Napi::Object exports);
void RegisterVerify(Napi::Env env, Napi::Object exports);  // verify_js.cc

// The flag behind a handle from createCancel(); a TypeError for anything else.
CancelPtr CancelFromValue(Napi::Env env, Napi::Value value, const char* name);

// Option readers: absent (undefined or null) gives the fallback; a wrong type or range a TypeError.
uint64_t OptionalInteger(Napi::Object options, const char* key, uint64_t min, uint64_t max,
                         uint64_t fallback);
double OptionalNumber(Napi::Object options, const char* key, double min, double max,
                      double fallback);
bool OptionalBool(Napi::Object options, const char* key, bool fallback);
Napi::Function OptionalFunction(Napi::Object options, const char* key);
CancelPtr OptionalCancel(Napi::Object options, const char* key);
bool IsAbsent(Napi::Value value);
// timedWrite's `stamp` option { fileId, runTag } (verify_js.cc); absent: not stamped.
StampSpec OptionalStamp(Napi::Object options, const char* key);

}  // namespace plumb
