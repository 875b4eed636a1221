// verifyFile(path, fileId, options): reads a file written by timedWrite with the `stamp` option
// back, uncached, and checks the stamp of every 4 KiB block (engine/stamp.h). Resolves with the
// bytes checked and bad, and what the first bad block held; progress about every 100 ms.
#include <cmath>

#include "engine/stamp.h"
#include "napi/errors.h"
#include "napi/io_js.h"
#include "napi/progress_worker.h"

namespace plumb {
namespace {

struct Progress {
  uint64_t bytesDone;
  uint64_t nanos;
};

double Number(uint64_t value) { return static_cast<double>(value); }

const char* FindingName(BlockFinding finding) {
  switch (finding) {
    case BlockFinding::kOtherBlock: return "other-block";
    case BlockFinding::kZeros: return "zeros";
    case BlockFinding::kDamaged: break;
  }
  return "damaged";
}

class VerifyWorker : public ProgressWorker<Progress> {
 public:
  VerifyWorker(Napi::Env env, VerifyRequest request, Napi::Function onProgress)
      : ProgressWorker<Progress>(env, onProgress, request.cancel), request_(std::move(request)) {
    request_.cancel = cancel_;
  }

  void Execute(const ExecutionProgress& progress) override {
    request_.onProgress = [&progress](uint64_t bytesDone, uint64_t nanos) {
      Progress event{bytesDone, nanos};
      progress.Send(&event, 1);
    };
    ok_ = RunVerifyFile(request_, &outcome_, &err_);
  }

 private:
  Napi::Value EventToJs(Napi::Env env, const Progress& event) override {
    Napi::Object o = Napi::Object::New(env);
    o.Set("bytesDone", Number(event.bytesDone));
    o.Set("seconds", Number(event.nanos) / 1e9);
    return o;
  }

  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!ok_) {
      deferred.Reject(ToJsError(env, err_).Value());
      return;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("path", PathToJs(env, request_.path));
    result.Set("bytes", Number(outcome_.bytes));
    result.Set("checkedBytes", Number(outcome_.checkedBytes));
    result.Set("badBytes", Number(outcome_.badBytes));
    result.Set("badBlocks", Number(outcome_.badBlocks));
    result.Set("firstBadOffset", outcome_.anyBad
                                     ? Napi::Number::New(env, Number(outcome_.firstBadOffset))
                                     : env.Null());
    if (outcome_.anyBad) {
      Napi::Object found = Napi::Object::New(env);
      found.Set("kind", FindingName(outcome_.firstBadFinding));
      const bool other = outcome_.firstBadFinding == BlockFinding::kOtherBlock;
      found.Set("fileId", other ? Napi::Number::New(env, outcome_.foundFileId) : env.Null());
      found.Set("offset",
                other ? Napi::Number::New(env, Number(outcome_.foundOffset)) : env.Null());
      found.Set("sameRun",
                Napi::Boolean::New(env, other && outcome_.foundRunTag == request_.stamp.runTag));
      result.Set("firstBadFound", found);
    } else {
      result.Set("firstBadFound", env.Null());
    }
    result.Set("cacheMode", outcome_.direct ? "direct" : "buffered");
    result.Set("seconds", Number(outcome_.nanos) / 1e9);
    deferred.Resolve(result);
  }

  VerifyRequest request_;
  VerifyOutcome outcome_;
  SysError err_;
  bool ok_ = false;
};

uint32_t RequireId(const Napi::CallbackInfo& info, size_t index, const char* name) {
  const double value = info.Length() > index && info[index].IsNumber()
                           ? info[index].As<Napi::Number>().DoubleValue()
                           : -1;
  if (!std::isfinite(value) || value < 0 || value > 0xffffffffu || value != std::floor(value)) {
    throw Napi::TypeError::New(
        info.Env(),
        std::string("The \"") + name + "\" argument must be an integer from 0 to 4294967295");
  }
  return static_cast<uint32_t>(value);
}

Napi::Value VerifyFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VerifyRequest request;
  request.path = RequirePath(info, 0, "path");
  request.stamp.enabled = true;
  request.stamp.fileId = RequireId(info, 1, "fileId");
  Napi::Object options = OptionalObject(info, 2, "options");
  request.stamp.runTag =
      static_cast<uint32_t>(OptionalInteger(options, "runTag", 0, 0xffffffffu, 0));
  request.buffered = OptionalBool(options, "buffered", false);
  request.cancel = OptionalCancel(options, "cancel");
  Napi::Function onProgress = OptionalFunction(options, "onProgress");
  auto* worker = new VerifyWorker(env, std::move(request), onProgress);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace

StampSpec OptionalStamp(Napi::Object options, const char* key) {
  StampSpec spec;
  Napi::Value value = options.Get(key);
  if (IsAbsent(value)) return spec;
  if (!value.IsObject()) {
    throw Napi::TypeError::New(options.Env(), std::string("The \"") + key +
                                                  "\" option must be an object { fileId, runTag }");
  }
  Napi::Object stamp = value.As<Napi::Object>();
  spec.enabled = true;
  spec.fileId = static_cast<uint32_t>(OptionalInteger(stamp, "fileId", 0, 0xffffffffu, 0));
  spec.runTag = static_cast<uint32_t>(OptionalInteger(stamp, "runTag", 0, 0xffffffffu, 0));
  return spec;
}

void RegisterVerify(Napi::Env env, Napi::Object exports) {
  exports.Set("verifyFile", Napi::Function::New(env, VerifyFile, "verifyFile"));
}

}  // namespace plumb
