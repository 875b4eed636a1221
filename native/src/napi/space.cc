// Space primitives for JavaScript: every call runs off the JS thread and returns a Promise.
//   fileSharing(path)                   extents, shared bytes, clone id: how the data is stored
//   dedupeFile(source, target)          kernel-verified sharing of the whole target with source
//   sharingSupport(file)                can this file system share storage (clones)?
//   cloneFile(source, target)           a new file sharing source's storage
//   copyMetadata(from, to)              owner, mode, xattrs/ACLs, flags, times
//   setTimes(path, atimeNs, mtimeNs)    exact times (bigint nanoseconds)
//   replaceWithClone(clone, target, swapPath, expected)   guarded swap; no write to target is lost
//   dataRanges(path)                    data/hole map, logical and allocated size
//   punchZeros(path, ranges, blockBytes) the zero blocks of ranges into holes, under a guard
//   createSparseFile(path, bytes)       a new all-hole file
//   flushVolume(path)                   sync the volume so free space is up to date
//   recycleFile(path)                   Windows: to the Recycle Bin, never deleted for good
#include "space.h"

#include <napi.h>

#include <functional>
#include <utility>

#include "napi/errors.h"
#include "napi/exports.h"
#include "napi/promise_worker.h"

namespace plumb {
namespace {

Napi::Value Num(Napi::Env env, uint64_t value) {
  return Napi::Number::New(env, static_cast<double>(value));
}

// Runs `run` on a worker thread, then resolves with `convert(result)` or rejects with the SysError.
template <typename Result>
class SpaceWorker : public PromiseWorker {
 public:
  using Run = std::function<bool(Result*, SysError*)>;
  using Convert = std::function<Napi::Value(Napi::Env, const Result&)>;

  SpaceWorker(Napi::Env env, const char* name, Run run, Convert convert)
      : PromiseWorker(env, name), run_(std::move(run)), convert_(std::move(convert)) {}

  void Execute() override {
    if (!run_(&result_, &err_) && err_.ok()) err_ = MakeSysError(0, "space", "");
  }

 private:
  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (!err_.ok()) {
      deferred.Reject(ToJsError(env, err_).Value());
    } else {
      deferred.Resolve(convert_(env, result_));
    }
  }

  Run run_;
  Convert convert_;
  Result result_{};
  SysError err_;
};

template <typename Result>
Napi::Value Start(Napi::Env env, const char* name, typename SpaceWorker<Result>::Run run,
                  typename SpaceWorker<Result>::Convert convert) {
  auto* worker = new SpaceWorker<Result>(env, name, std::move(run), std::move(convert));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

struct Nothing {};
Napi::Value Undefined(Napi::Env env, const Nothing&) { return env.Undefined(); }

uint64_t BytesFrom(Napi::Env env, const Napi::Value& v, const std::string& name) {
  if (!v.IsNumber()) {
    throw Napi::TypeError::New(env, "The \"" + name + "\" argument must be a number");
  }
  const double value = v.As<Napi::Number>().DoubleValue();
  if (!(value >= 0) || value > 9007199254740991.0 ||
      value != static_cast<double>(static_cast<uint64_t>(value))) {
    throw Napi::TypeError::New(env,
                               "The \"" + name + "\" argument must be a whole number of bytes");
  }
  return static_cast<uint64_t>(value);
}

uint64_t RequireBytes(const Napi::CallbackInfo& info, size_t index, const char* name) {
  return BytesFrom(info.Env(), info.Length() > index ? info[index] : info.Env().Undefined(), name);
}

// A bigint that fits in 64 bits, signed (times) or not (inode numbers).
int64_t BigIntFrom(Napi::Env env, const Napi::Value& v, const std::string& name, bool isUnsigned) {
  if (!v.IsBigInt()) {
    throw Napi::TypeError::New(env, "The \"" + name + "\" argument must be a bigint");
  }
  bool lossless = false;
  const int64_t value = isUnsigned
                            ? static_cast<int64_t>(v.As<Napi::BigInt>().Uint64Value(&lossless))
                            : v.As<Napi::BigInt>().Int64Value(&lossless);
  if (!lossless) {
    throw Napi::TypeError::New(env, "The \"" + name + "\" argument is out of range");
  }
  return value;
}

int64_t RequireNanoseconds(const Napi::CallbackInfo& info, size_t index, const char* name) {
  return BigIntFrom(info.Env(), info.Length() > index ? info[index] : info.Env().Undefined(), name,
                    false);
}

Napi::Value SharingToJs(Napi::Env env, const FileSharing& s) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("logicalBytes", Num(env, s.logicalBytes));
  o.Set("allocatedBytes", Num(env, s.allocatedBytes));
  if (s.extents) {
    Napi::Array list = Napi::Array::New(env, s.extents->size());
    for (size_t i = 0; i < s.extents->size(); ++i) {
      const FileExtent& e = (*s.extents)[i];
      Napi::Object item = Napi::Object::New(env);
      item.Set("logical", Num(env, e.logical));
      item.Set("physical", Num(env, e.physical));
      item.Set("length", Num(env, e.length));
      item.Set("shared", Napi::Boolean::New(env, e.shared));
      list.Set(static_cast<uint32_t>(i), item);
    }
    o.Set("extents", list);
  } else {
    o.Set("extents", env.Null());
  }
  o.Set("sharedBytes", s.sharedBytes ? Num(env, *s.sharedBytes) : env.Null());
  o.Set("compressed", s.compressed ? Napi::Boolean::New(env, *s.compressed) : env.Null());
  o.Set("cloneId", s.cloneId ? Napi::String::New(env, *s.cloneId) : env.Null());
  o.Set("privateBytes", s.privateBytes ? Num(env, *s.privateBytes) : env.Null());
  o.Set("cloneRefcount", s.cloneRefcount ? Num(env, *s.cloneRefcount) : env.Null());
  return o;
}

Napi::Value FileSharingJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  return Start<FileSharing>(
      info.Env(), "fileSharing",
      [path](FileSharing* out, SysError* err) { return QueryFileSharing(path, out, err); },
      SharingToJs);
}

Napi::Value DedupeFileJs(const Napi::CallbackInfo& info) {
  std::string source = RequirePath(info, 0, "source");
  std::string target = RequirePath(info, 1, "target");
  return Start<DedupeOutcome>(
      info.Env(), "dedupeFile",
      [source, target](DedupeOutcome* out, SysError* err) {
        return DedupeWholeFile(source, target, out, err);
      },
      [](Napi::Env env, const DedupeOutcome& r) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("bytesDeduped", Num(env, r.bytesDeduped));
        o.Set("differs", Napi::Boolean::New(env, r.differs));
        return static_cast<Napi::Value>(o);
      });
}

Napi::Value SharingSupportJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  return Start<std::optional<bool>>(
      info.Env(), "sharingSupport",
      [path](std::optional<bool>* out, SysError* err) {
        return QuerySharingSupport(path, out, err);
      },
      [](Napi::Env env, const std::optional<bool>& supported) {
        return supported ? static_cast<Napi::Value>(Napi::Boolean::New(env, *supported))
                         : env.Null();
      });
}

Napi::Value CloneFileJs(const Napi::CallbackInfo& info) {
  std::string source = RequirePath(info, 0, "source");
  std::string target = RequirePath(info, 1, "target");
  return Start<Nothing>(
      info.Env(), "cloneFile",
      [source, target](Nothing*, SysError* err) { return CloneFile(source, target, err); },
      Undefined);
}

Napi::Value CopyMetadataJs(const Napi::CallbackInfo& info) {
  std::string from = RequirePath(info, 0, "from");
  std::string to = RequirePath(info, 1, "to");
  return Start<Nothing>(
      info.Env(), "copyMetadata",
      [from, to](Nothing*, SysError* err) { return CopyMetadata(from, to, err); }, Undefined);
}

Napi::Value SetTimesJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  int64_t atimeNs = RequireNanoseconds(info, 1, "atimeNs");
  int64_t mtimeNs = RequireNanoseconds(info, 2, "mtimeNs");
  return Start<Nothing>(
      info.Env(), "setTimes",
      [path, atimeNs, mtimeNs](Nothing*, SysError* err) {
        return SetTimes(path, atimeNs, mtimeNs, err);
      },
      Undefined);
}

Napi::Value ReplaceWithCloneJs(const Napi::CallbackInfo& info) {
  std::string clone = RequirePath(info, 0, "clone");
  std::string target = RequirePath(info, 1, "target");
  std::string swapPath = RequirePath(info, 2, "swapPath");
  if (info.Length() <= 3 || !info[3].IsObject()) {
    throw Napi::TypeError::New(info.Env(), "The \"expected\" argument must be an object");
  }
  Napi::Object facts = info[3].As<Napi::Object>();
  Napi::Env env = info.Env();
  FileFacts expected;
  expected.ino = static_cast<uint64_t>(BigIntFrom(env, facts.Get("ino"), "expected.ino", true));
  expected.size = BytesFrom(env, facts.Get("size"), "expected.size");
  expected.mtimeNs = BigIntFrom(env, facts.Get("mtimeNs"), "expected.mtimeNs", false);
  expected.ctimeNs = BigIntFrom(env, facts.Get("ctimeNs"), "expected.ctimeNs", false);
  return Start<ReplaceResult>(
      info.Env(), "replaceWithClone",
      [clone, target, swapPath, expected](ReplaceResult* out, SysError* err) {
        return ReplaceWithClone(clone, target, swapPath, expected, out, err);
      },
      [](Napi::Env env, const ReplaceResult& r) {
        static const char* const names[] = {"replaced", "in-use", "changed", "opened"};
        Napi::Object o = Napi::Object::New(env);
        o.Set("outcome", names[static_cast<int>(r.outcome)]);
        o.Set("keptPath", r.keptPath.empty() ? env.Null() : PathToJs(env, r.keptPath));
        return static_cast<Napi::Value>(o);
      });
}

Napi::Value DataRangesJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  return Start<DataMap>(
      info.Env(), "dataRanges",
      [path](DataMap* out, SysError* err) { return QueryDataRanges(path, out, err); },
      [](Napi::Env env, const DataMap& map) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("logicalBytes", Num(env, map.logicalBytes));
        o.Set("allocatedBytes", Num(env, map.allocatedBytes));
        o.Set("holesSupported", Napi::Boolean::New(env, map.holesSupported));
        Napi::Array list = Napi::Array::New(env, map.data.size());
        for (size_t i = 0; i < map.data.size(); ++i) {
          Napi::Object range = Napi::Object::New(env);
          range.Set("offset", Num(env, map.data[i].offset));
          range.Set("length", Num(env, map.data[i].length));
          list.Set(static_cast<uint32_t>(i), range);
        }
        o.Set("data", list);
        return static_cast<Napi::Value>(o);
      });
}

// [{ offset, length }, ...] as byte ranges; a TypeError for anything else.
std::vector<ByteRange> RequireRanges(const Napi::CallbackInfo& info, size_t index,
                                     const char* name) {
  Napi::Env env = info.Env();
  const std::string shape =
      std::string("The \"") + name + "\" argument must be an array of { offset, length }";
  if (info.Length() <= index || !info[index].IsArray()) throw Napi::TypeError::New(env, shape);
  Napi::Array list = info[index].As<Napi::Array>();
  std::vector<ByteRange> ranges;
  ranges.reserve(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Value item = list.Get(i);
    if (!item.IsObject() || item.IsArray()) throw Napi::TypeError::New(env, shape);
    Napi::Object range = item.As<Napi::Object>();
    ranges.push_back(ByteRange{BytesFrom(env, range.Get("offset"), "offset"),
                               BytesFrom(env, range.Get("length"), "length")});
  }
  return ranges;
}

const char* PunchOutcomeName(PunchOutcome outcome) {
  switch (outcome) {
    case PunchOutcome::kDone: return "done";
    case PunchOutcome::kInUse: return "in-use";
    case PunchOutcome::kOpened: return "opened";
    case PunchOutcome::kTooSlow: return "too-slow";
  }
  return "done";
}

Napi::Value PunchZerosJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  std::vector<ByteRange> ranges = RequireRanges(info, 1, "ranges");
  uint64_t blockBytes = RequireBytes(info, 2, "blockBytes");
  if (blockBytes == 0) {
    throw Napi::TypeError::New(info.Env(), "The \"blockBytes\" argument must be above 0");
  }
  return Start<PunchResult>(
      info.Env(), "punchZeros",
      [path, ranges, blockBytes](PunchResult* out, SysError* err) {
        return PunchZeroBlocks(path, ranges, blockBytes, out, err);
      },
      [](Napi::Env env, const PunchResult& result) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("outcome", PunchOutcomeName(result.outcome));
        o.Set("punchedBytes", Num(env, result.punchedBytes));
        return static_cast<Napi::Value>(o);
      });
}

Napi::Value FlushVolumeJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  return Start<Nothing>(
      info.Env(), "flushVolume", [path](Nothing*, SysError* err) { return FlushVolume(path, err); },
      Undefined);
}

Napi::Value CreateSparseFileJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  uint64_t bytes = RequireBytes(info, 1, "bytes");
  return Start<Nothing>(
      info.Env(), "createSparseFile",
      [path, bytes](Nothing*, SysError* err) { return CreateSparseFile(path, bytes, err); },
      Undefined);
}

Napi::Value RecycleFileJs(const Napi::CallbackInfo& info) {
  std::string path = RequirePath(info, 0, "path");
  return Start<RecycledFile>(
      info.Env(), "recycleFile",
      [path](RecycledFile* out, SysError* err) { return RecycleFile(path, out, err); },
      [](Napi::Env env, const RecycledFile& file) {
        Napi::Object o = Napi::Object::New(env);
        o.Set("recycledPath", PathToJs(env, file.recycledPath));
        o.Set("infoPath", PathToJs(env, file.infoPath));
        return static_cast<Napi::Value>(o);
      });
}

}  // namespace

void RegisterSpace(Napi::Env env, Napi::Object exports) {
  exports.Set("fileSharing", Napi::Function::New(env, FileSharingJs, "fileSharing"));
  exports.Set("dedupeFile", Napi::Function::New(env, DedupeFileJs, "dedupeFile"));
  exports.Set("sharingSupport", Napi::Function::New(env, SharingSupportJs, "sharingSupport"));
  exports.Set("cloneFile", Napi::Function::New(env, CloneFileJs, "cloneFile"));
  exports.Set("copyMetadata", Napi::Function::New(env, CopyMetadataJs, "copyMetadata"));
  exports.Set("setTimes", Napi::Function::New(env, SetTimesJs, "setTimes"));
  exports.Set("replaceWithClone", Napi::Function::New(env, ReplaceWithCloneJs, "replaceWithClone"));
  exports.Set("dataRanges", Napi::Function::New(env, DataRangesJs, "dataRanges"));
  exports.Set("punchZeros", Napi::Function::New(env, PunchZerosJs, "punchZeros"));
  exports.Set("flushVolume", Napi::Function::New(env, FlushVolumeJs, "flushVolume"));
  exports.Set("createSparseFile", Napi::Function::New(env, CreateSparseFileJs, "createSparseFile"));
  exports.Set("recycleFile", Napi::Function::New(env, RecycleFileJs, "recycleFile"));
}

}  // namespace plumb
