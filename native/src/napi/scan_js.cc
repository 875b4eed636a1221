// scanFolder(settings, options): the whole space scan (scan/scan.h) off the JS thread; settings may
// name a hashCache file (scan/hash_cache.h). Resolves with the contract's ScanResult object (with
// settings.groupsShown, only that many of its groups, the largest, and their number in groupCount);
// rejects with an Error carrying `code` (ENOENT, ENOTDIR, ECANCELED, ...) and a message for people.
// options: { cancel, onProgress(ScanProgress) }. scanFolderJson(settings, options) runs the same
// scan and resolves with { next() }, the result's JSON text in Buffers (scan/result_json.h).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#if defined(__GLIBC__)  // set by the C++ headers above
#include <malloc.h>
#endif
#ifdef __linux__
#include <fcntl.h>
#include <sys/stat.h>
#endif

#include "napi/errors.h"
#include "napi/exports.h"
#include "napi/io_js.h"
#include "napi/progress_worker.h"
#include "scan/result_json.h"
#include "scan/scan.h"
#include "scan/sharing.h"

namespace plumb {
namespace {

Napi::Value Number(Napi::Env env, uint64_t value) {
  return Napi::Number::New(env, static_cast<double>(value));
}

Napi::Value OrNull(Napi::Env env, const std::optional<uint64_t>& value) {
  return value ? Number(env, *value) : env.Null();
}

Napi::Value OrNull(Napi::Env env, const std::optional<bool>& value) {
  return value ? static_cast<Napi::Value>(Napi::Boolean::New(env, *value)) : env.Null();
}

Napi::Value OrNull(Napi::Env env, const std::optional<std::string>& value) {
  return value ? static_cast<Napi::Value>(Napi::String::New(env, *value)) : env.Null();
}

Napi::Value OrNull(Napi::Env env, const char* value) {
  return value ? static_cast<Napi::Value>(Napi::String::New(env, value)) : env.Null();
}

// Hands memory the scan freed back to the OS. glibc keeps freed small blocks for reuse, so after a
// scan of a million files the walk's ~150 MB stayed in the process while the JS result (another
// ~250 MB) was built beside it; malloc_trim returns the free pages. Elsewhere the allocator does so
// by itself.
void ReturnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
// Keeps large blocks (the scan's arrays: digests, groups, the cache's runs) in their own mappings,
// handed back to the OS when freed. glibc raises its mmap threshold to the size of each mapped
// block freed (up to 32 MB), so after the hash stage let go of its arrays the next ones came from
// the heap, whose freed parts stay with the process: a million files' scan peaked at 178-181 MB
// while the groups were described, 168 MB with the threshold held at its default (and as fast).
// Setting it turns that raising off for the process; blocks under 128 KiB are served as before.
void KeepLargeBlocksMapped() {
#if defined(__GLIBC__)
  static const bool set = mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1;
  (void)set;
#endif
}
// While the result is made in JS, freed native groups are handed back this often (each trim walks
// the allocator's free lists: a few ms).
constexpr size_t kGroupsBetweenTrims = 32768;

Napi::Object ProgressObject(Napi::Env env, const scan::Progress& p) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("scanId", p.scanId);
  o.Set("phase", scan::PhaseName(p.phase));
  o.Set("files", Number(env, p.files));
  o.Set("bytes", Number(env, p.bytes));
  o.Set("bytesToHash", Number(env, p.bytesToHash));
  o.Set("bytesHashed", Number(env, p.bytesHashed));
  o.Set("seconds", p.seconds);
  o.Set("secondsLeft", p.secondsLeft ? Napi::Number::New(env, *p.secondsLeft) : env.Null());
  return o;
}

// The group notes as JS strings, made once for the whole result (each group would otherwise hold
// its own copy of the same sentence: 36 MB over 300,000 groups). Made in the result's handle
// scope, before the groups' own scopes open (Node 20 keeps no references to strings).
class NoteStrings {
 public:
  NoteStrings(Napi::Env env, const scan::GroupList& groups) : env_(env) {
    for (const char* note : groups.Notes())
      if (!Find(note)) made_.emplace_back(note, Napi::String::New(env, note));
  }
  Napi::Value Of(const char* note) const {
    const Napi::String* made = note ? Find(note) : nullptr;
    return made ? static_cast<Napi::Value>(*made) : env_.Null();
  }

 private:
  const Napi::String* Find(const char* note) const {
    for (const auto& [text, value] : made_)
      if (text == note) return &value;
    return nullptr;
  }
  Napi::Env env_;
  std::vector<std::pair<const char*, Napi::String>> made_;  // a few fixed sentences
};

Napi::Object GroupObject(Napi::Env env, const scan::Group& g, const NoteStrings& notes) {
  Napi::Array files = Napi::Array::New(env, g.files.size());
  Napi::Value keeper;
  for (size_t i = 0; i < g.files.size(); ++i) {
    const scan::GroupFile& f = g.files[i];
    Napi::Object file = Napi::Object::New(env);
    Napi::Value path = PathToJs(env, f.path);
    if (i == g.keeperIndex) keeper = path;  // the keeper's path is the same string, not a copy
    file.Set("path", path);
    file.Set("size", Number(env, f.size));
    file.Set("ino", Number(env, f.ino));
    file.Set("mtimeMs", f.mtimeMs);
    file.Set("ctimeMs", f.ctimeMs);
    file.Set("links", Number(env, f.links));
    file.Set("reclaimableBytes", OrNull(env, f.reclaimableBytes));
    file.Set("alreadyClone", OrNull(env, f.alreadyClone));
    files.Set(static_cast<uint32_t>(i), file);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("id", g.id);
  o.Set("size", Number(env, g.size));
  o.Set("keeper", keeper);
  o.Set("files", files);
  o.Set("nominalBytes", Number(env, g.nominalBytes));
  o.Set("sharedBytes", OrNull(env, g.sharedBytes));
  o.Set("reclaimableBytes", OrNull(env, g.reclaimableBytes));
  o.Set("note", notes.Of(g.note));
  return o;
}

// The contract's ScanResult, keys in its order; and the sparse files' paths when asked for them.
// Each group's native copy is let go once it is made in JS, so the two are not held whole at once.
// With `shown`, only the first `shown` groups (the largest) are made, and groupCount says how many
// there are: what a summary needs, without an object for each of a million files.
Napi::Object ResultObject(Napi::Env env, scan::Result& r, bool sparsePaths,
                          std::optional<size_t> shown) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("scanId", r.scanId);
  o.Set("root", PathToJs(env, r.root));
  o.Set("fsType", OrNull(env, r.fsType));
  o.Set("sharingSupported", OrNull(env, r.sharingSupported));
  o.Set("files", Number(env, r.files));
  o.Set("bytes", Number(env, r.bytes));
  o.Set("seconds", r.seconds);
  Napi::Object stages = Napi::Object::New(env);
  stages.Set("walk", r.stageSeconds.walk);
  stages.Set("compare", r.stageSeconds.compare);
  stages.Set("hash", r.stageSeconds.hash);
  stages.Set("sharing", r.stageSeconds.sharing);
  o.Set("stageSeconds", stages);
  Napi::Object skipped = Napi::Object::New(env);
  skipped.Set("symlinks", Number(env, r.skipped.symlinks));
  skipped.Set("otherVolumes", Number(env, r.skipped.otherVolumes));
  skipped.Set("extraHardLinks", Number(env, r.skipped.extraHardLinks));
  skipped.Set("special", Number(env, r.skipped.special));
  skipped.Set("excluded", Number(env, r.skipped.excluded));
  skipped.Set("unreadable", Number(env, r.skipped.unreadable));
  o.Set("skipped", skipped);
  const size_t made = std::min(r.groups.size(), shown.value_or(r.groups.size()));
  Napi::Array groups = Napi::Array::New(env, made);
  const NoteStrings notes(env, r.groups);
  for (size_t i = 0; i < made; ++i) {
    // A scope per item, here and in every list built below: the array holds what is made, and
    // the handles go. In one scope, a million of them are roots every young-generation GC scans
    // (on a 1M-file tree, 16 of the rescan's 22 s were such scavenges).
    Napi::HandleScope scope(env);
    r.groups.MakingNext(i);
    groups.Set(static_cast<uint32_t>(i), GroupObject(env, r.groups[i], notes));
    if ((i + 1) % kGroupsBetweenTrims == 0) ReturnFreedMemory();
  }
  if (shown) o.Set("groupCount", Number(env, r.groups.size()));
  r.groups.Release();
  o.Set("groups", groups);
  Napi::Object totals = Napi::Object::New(env);
  totals.Set("nominalBytes", Number(env, r.totals.nominalBytes));
  totals.Set("sharedBytes", OrNull(env, r.totals.sharedBytes));
  totals.Set("reclaimableBytes", OrNull(env, r.totals.reclaimableBytes));
  totals.Set("unknownGroups", Number(env, r.totals.unknownGroups));
  o.Set("totals", totals);
  Napi::Object sparse = Napi::Object::New(env);
  sparse.Set("files", Number(env, r.sparse.files));
  sparse.Set("logicalBytes", Number(env, r.sparse.logicalBytes));
  sparse.Set("allocatedBytes", Number(env, r.sparse.allocatedBytes));
  o.Set("sparse", sparse);
  Napi::Object read = Napi::Object::New(env);
  read.Set("files", Number(env, r.filesRead));
  read.Set("bytes", Number(env, r.bytesRead));
  o.Set("contentRead", read);
  if (sparsePaths) {
    Napi::Array paths = Napi::Array::New(env, r.sparsePaths.size());
    for (size_t i = 0; i < r.sparsePaths.size(); ++i) {
      Napi::HandleScope scope(env);
      paths.Set(static_cast<uint32_t>(i), PathToJs(env, r.sparsePaths[i]));
    }
    o.Set("sparsePaths", paths);
  }
  return o;
}

// What scanFolderJson resolves with: { next() } giving the result's JSON text (scan/result_json.h)
// a Buffer at a time, then null.
Napi::Object JsonReader(Napi::Env env, std::shared_ptr<scan::ResultJson> json) {
  Napi::Object o = Napi::Object::New(env);
  size_t pieces = 0;
  o.Set("next", Napi::Function::New(
                    env,
                    [json, pieces](const Napi::CallbackInfo& info) mutable -> Napi::Value {
                      std::string piece;
                      if (!json->Next(&piece)) return info.Env().Null();
                      // The groups written are let go: hand their memory back now and then.
                      if (++pieces % 32 == 0) ReturnFreedMemory();
                      return Napi::Buffer<char>::Copy(info.Env(), piece.data(), piece.size());
                    },
                    "next"));
  return o;
}

class ScanWorker : public ProgressWorker<scan::Progress> {
 public:
  ScanWorker(Napi::Env env, scan::Settings settings, CancelPtr cancel, Napi::Function onProgress,
             bool json, std::optional<size_t> groupsShown)
      : ProgressWorker<scan::Progress>(env, onProgress, std::move(cancel)),
        settings_(std::move(settings)),
        json_(json),
        groupsShown_(groupsShown) {}

  void Execute(const ExecutionProgress& progress) override {
    const scan::ProgressFn report = [&progress](const scan::Progress& p) { progress.Send(&p, 1); };
    KeepLargeBlocksMapped();
    ok_ = scan::RunScan(settings_, cancel_, report, &result_, &err_);
    ReturnFreedMemory();
  }

 private:
  Napi::Value EventToJs(Napi::Env env, const scan::Progress& event) override {
    return ProgressObject(env, event);
  }

  void Settle(Napi::Env env, Napi::Promise::Deferred& deferred) override {
    if (ok_ && json_) {
      deferred.Resolve(JsonReader(
          env, std::make_shared<scan::ResultJson>(std::move(result_), settings_.sparsePaths,
                                                  settings_.largePaths > 0)));
    } else if (ok_) {
      Napi::Object result = ResultObject(env, result_, settings_.sparsePaths, groupsShown_);
      if (settings_.largePaths > 0) {
        Napi::Array paths = Napi::Array::New(env, result_.largePaths.size());
        for (size_t i = 0; i < result_.largePaths.size(); ++i) {
          Napi::HandleScope scope(env);
          paths.Set(static_cast<uint32_t>(i), PathToJs(env, result_.largePaths[i]));
        }
        result.Set("largePaths", paths);
      }
      deferred.Resolve(result);
    } else {
      Napi::Error error = Napi::Error::New(env, err_.message);
      // The message quotes the folder: a name that is not UTF-8 keeps its bytes.
      if (!PathIsUtf8(err_.message)) error.Set("message", PathToJs(env, err_.message));
      error.Set("code", Napi::String::New(env, err_.code));
      if (!err_.syscall.empty()) error.Set("syscall", Napi::String::New(env, err_.syscall));
      if (!err_.path.empty()) error.Set("path", PathToJs(env, err_.path));
      deferred.Reject(error.Value());
    }
    result_ = scan::Result{};
  }

  scan::Settings settings_;
  const bool json_;
  const std::optional<size_t> groupsShown_;
  scan::Result result_;
  SysError err_;
  bool ok_ = false;
};

// scanFolder, or with `json` scanFolderJson: the same settings, the same scan.
Napi::Value StartScan(const Napi::CallbackInfo& info, bool json) {
  Napi::Env env = info.Env();
  Napi::Object input = OptionalObject(info, 0, "settings");
  scan::Settings settings;
  Napi::Value path = input.Get("path");
  if (!path.IsString() || path.As<Napi::String>().Utf16Value().empty()) {
    throw Napi::TypeError::New(env, "The \"settings.path\" property must be a non-empty string");
  }
  settings.path = PathFromJs(path.As<Napi::String>());
  if (settings.path.find('\0') != std::string::npos) {
    throw Napi::TypeError::New(env, "The \"settings.path\" property must not contain NUL");
  }
  settings.minBytes = OptionalInteger(input, "minBytes", 0, uint64_t{1} << 53, 1);
  settings.includeHidden = OptionalBool(input, "includeHidden", true);
  settings.skipPackages = OptionalBool(input, "skipPackages", true);
  settings.skipCloudFolders = OptionalBool(input, "skipCloudFolders", true);
  settings.sparsePaths = OptionalBool(input, "sparsePaths", false);
  settings.largePaths = OptionalInteger(input, "largePaths", 0, uint64_t{1} << 53, 0);
  settings.spillBytes =
      OptionalInteger(input, "spillBytes", 0, uint64_t{1} << 53, scan::Settings{}.spillBytes);
  Napi::Value scanId = input.Get("scanId");
  if (!scanId.IsUndefined()) {
    if (!scanId.IsString()) {
      throw Napi::TypeError::New(env, "The \"settings.scanId\" property must be a string");
    }
    settings.scanId = scanId.As<Napi::String>().Utf8Value();
  }
  Napi::Value hashCache = input.Get("hashCache");
  if (!hashCache.IsUndefined()) {
    if (!hashCache.IsString() ||
        PathFromJs(hashCache.As<Napi::String>()).find('\0') != std::string::npos) {
      throw Napi::TypeError::New(env, "The \"settings.hashCache\" property must be a file path");
    }
    settings.hashCache = PathFromJs(hashCache.As<Napi::String>());
  }
  std::optional<size_t> groupsShown;
  if (!input.Get("groupsShown").IsUndefined())
    groupsShown =
        static_cast<size_t>(OptionalInteger(input, "groupsShown", 0, uint64_t{1} << 32, 0));
  Napi::Object options = OptionalObject(info, 1, "options");
  auto* worker = new ScanWorker(env, std::move(settings), OptionalCancel(options, "cancel"),
                                OptionalFunction(options, "onProgress"), json, groupsShown);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

Napi::Value ScanFolder(const Napi::CallbackInfo& info) { return StartScan(info, false); }
Napi::Value ScanFolderJson(const Napi::CallbackInfo& info) { return StartScan(info, true); }

// A whole number of bytes from a JS value, or a TypeError naming `what`.
uint64_t RequireBytes(Napi::Env env, Napi::Value value, const char* what) {
  const double n = value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : -1;
  if (!(n >= 0 && n <= 9007199254740991.0 && n == static_cast<double>(static_cast<uint64_t>(n)))) {
    throw Napi::TypeError::New(env, std::string(what) + " must be a whole number of bytes");
  }
  return static_cast<uint64_t>(n);
}

// groupSharing(members, options): what cloning a group of identical files would free, from each
// member's storage facts (the scan's own rule, scan/sharing.cc). options.sweep forces the general
// extent sweep, so tests can check the shortcut for plain copies against it.
Napi::Value GroupSharingJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsArray()) {
    throw Napi::TypeError::New(env, "The \"members\" argument must be an array");
  }
  Napi::Array list = info[0].As<Napi::Array>();
  std::vector<scan::MemberStorage> members(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Value item = list.Get(i);
    if (!item.IsObject()) throw Napi::TypeError::New(env, "Each member must be an object");
    Napi::Object m = item.As<Napi::Object>();
    scan::MemberStorage& out = members[i];
    out.allocatedBytes = RequireBytes(env, m.Get("allocatedBytes"), "allocatedBytes");
    Napi::Value extents = m.Get("extents");
    if (extents.IsArray()) {
      Napi::Array rows = extents.As<Napi::Array>();
      out.extents.emplace();
      for (uint32_t k = 0; k < rows.Length(); ++k) {
        Napi::Value row = rows.Get(k);
        if (!row.IsObject()) throw Napi::TypeError::New(env, "Each extent must be an object");
        Napi::Object e = row.As<Napi::Object>();
        FileExtent extent;
        extent.physical = RequireBytes(env, e.Get("physical"), "physical");
        extent.length = RequireBytes(env, e.Get("length"), "length");
        extent.shared = e.Get("shared").ToBoolean().Value();
        out.extents->push_back(extent);
      }
    } else if (!extents.IsNull()) {
      throw Napi::TypeError::New(env, "extents must be an array or null");
    }
    Napi::Value cloneId = m.Get("cloneId");
    if (cloneId.IsString())
      out.cloneId = cloneId.As<Napi::String>().Utf8Value();
    else if (!cloneId.IsNull())
      throw Napi::TypeError::New(env, "cloneId must be a string or null");
    Napi::Value privateBytes = m.Get("privateBytes");
    if (!privateBytes.IsNull()) out.privateBytes = RequireBytes(env, privateBytes, "privateBytes");
  }
  Napi::Object options = OptionalObject(info, 1, "options");
  const bool sweep = OptionalBool(options, "sweep", false);
  if (sweep && !std::all_of(members.begin(), members.end(),
                            [](const scan::MemberStorage& m) { return m.extents.has_value(); })) {
    throw Napi::TypeError::New(env, "options.sweep needs extents for every member");
  }
  const scan::GroupSharing g =
      sweep && !members.empty() ? scan::SweepExtents(members) : scan::SharingOfGroup(members);
  Napi::Object o = Napi::Object::New(env);
  o.Set("keeperIndex", Number(env, g.keeperIndex));
  o.Set("sharedBytes", OrNull(env, g.sharedBytes));
  o.Set("reclaimableBytes", OrNull(env, g.reclaimableBytes));
  Napi::Array reclaimable = Napi::Array::New(env, g.memberReclaimable.size());
  Napi::Array clones = Napi::Array::New(env, g.memberAlreadyClone.size());
  for (uint32_t i = 0; i < g.memberReclaimable.size(); ++i) {
    reclaimable.Set(i, OrNull(env, g.memberReclaimable[i]));
    clones.Set(i, OrNull(env, g.memberAlreadyClone[i]));
  }
  o.Set("memberReclaimable", reclaimable);
  o.Set("memberAlreadyClone", clones);
  o.Set("note", OrNull(env, g.note));
  return o;
}

// widenPipe(fd): when `fd` is a pipe (on Linux), lets it hold 1 MiB instead of 64 KiB, so whoever
// reads `plumb space scan --json` takes its text in fewer, larger handoffs: the 276 MB of a rescan
// of a million files went through a 64 KiB pipe in 0.46-0.63 s, through a 1 MiB one in
// 0.20-0.26 s. Returns the pipe's size in bytes; 0 when `fd` is not a pipe or the OS has no say.
Napi::Value WidenPipe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double fd =
      info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : -1;
  if (!(fd >= 0 && fd <= 1 << 30 && fd == static_cast<double>(static_cast<int>(fd)))) {
    throw Napi::TypeError::New(env,
                               "The \"fd\" argument must be a file descriptor (a whole number)");
  }
  int size = 0;
#ifdef __linux__
  // What widenPipe asks a pipe to hold: Linux's limit for a process without privileges.
  constexpr int kPipeBytes = 1 << 20;
  const int handle = static_cast<int>(fd);
  struct stat st;
  if (fstat(handle, &st) == 0 && S_ISFIFO(st.st_mode)) {
    size = fcntl(handle, F_GETPIPE_SZ);
    if (size >= 0 && size < kPipeBytes) {
      const int grown = fcntl(handle, F_SETPIPE_SZ, kPipeBytes);
      if (grown > 0) size = grown;  // refused (over the user's pipe budget): left as it was
    }
    if (size < 0) size = 0;
  }
#endif
  return Number(env, static_cast<uint64_t>(size));
}

}  // namespace

void RegisterScan(Napi::Env env, Napi::Object exports) {
  exports.Set("widenPipe", Napi::Function::New(env, WidenPipe, "widenPipe"));
  exports.Set("scanFolder", Napi::Function::New(env, ScanFolder, "scanFolder"));
  exports.Set("scanFolderJson", Napi::Function::New(env, ScanFolderJson, "scanFolderJson"));
  exports.Set("groupSharing", Napi::Function::New(env, GroupSharingJs, "groupSharing"));
}

}  // namespace plumb
