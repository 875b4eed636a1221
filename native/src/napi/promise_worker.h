// Promise-returning async work that survives its environment's teardown.
//
// A Node worker thread terminated in the middle of a call (worker.terminate()) still waits for the
// work to finish, then completes it with JavaScript stopped: every N-API call that would run
// JavaScript (setting a property, settling a promise, calling a callback) fails, and node-addon-api
// turns the failure into a C++ exception. One escaping a completion callback ends the whole
// process (std::terminate, as SIGABRT). So completions run guarded: a failure rejects the promise
// while JavaScript can still run (a bug then shows as a rejection), and is dropped once nobody is
// left to tell. A synchronous call cut short the same way fails inside node-addon-api, whose
// rethrow as a JavaScript exception fails too: binding.gyp defines
// NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS, with which that rethrow ends quietly instead.
#pragma once

#include <napi.h>

#include <exception>
#include <utility>

namespace plumb {

// False once the environment can no longer run JavaScript (its worker thread is being torn down):
// N-API then answers napi_pending_exception with no exception pending.
inline bool CanRunJs(Napi::Env env) {
  napi_value probe = nullptr;
  if (napi_create_object(env, &probe) != napi_ok) return false;
  if (napi_set_named_property(env, probe, "probe", probe) == napi_ok) return true;
  bool pending = false;
  return napi_is_exception_pending(env, &pending) == napi_ok && pending;
}

// Runs `settle`, which resolves or rejects `deferred`, so that nothing is thrown out of it.
template <typename Settle>
void SettleGuarded(Napi::Env env, Napi::Promise::Deferred& deferred, Settle&& settle) noexcept {
  const auto rejectWith = [&](auto&& makeError) {
    try {
      if (CanRunJs(env)) deferred.Reject(makeError());
    } catch (...) {
      // The environment went away while the error was being handed over: nobody is left to tell.
    }
  };
  if (!CanRunJs(env)) return;  // torn down: building the answer would fail at its first property
  try {
    std::forward<Settle>(settle)();
  } catch (const Napi::Error& error) {
    rejectWith([&] { return error.Value(); });
  } catch (const std::exception& error) {
    rejectWith([&] { return Napi::Error::New(env, error.what()).Value(); });
  }
}

// An AsyncWorker whose completion settles a promise (Settle), guarded as above.
class PromiseWorker : public Napi::AsyncWorker {
 public:
  Napi::Promise Promise() { return deferred_.Promise(); }

 protected:
  PromiseWorker(Napi::Env env, const char* name)
      : Napi::AsyncWorker(env, name), deferred_(Napi::Promise::Deferred::New(env)) {}

  // Resolves or rejects once the work is done.
  virtual void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) = 0;

 private:
  void OnOK() final {
    SettleGuarded(Env(), deferred_, [this] { Settle(Env(), deferred_); });
  }
  void OnError(const Napi::Error& e) final {
    SettleGuarded(Env(), deferred_, [this, &e] { deferred_.Reject(e.Value()); });
  }

  Napi::Promise::Deferred deferred_;
};

}  // namespace plumb
