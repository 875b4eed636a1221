// The space scan, whole, in C++: walk one volume → same size → head and tail digest → full digest
// → how the file system stores each copy → groups with what cloning would really free.
//
// The addon's scanFolder runs it for every front door (the app, `plumb serve`, and
// `node bin/plumb.js`); napi/scan_js.cc turns the Result into the contract's object.
//
// No N-API here: scan/ is plain C++ over the per-OS backends (walk.h, content_hash.h, space.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io.h"
#include "plumb.h"

namespace plumb {
namespace scan {

// What to scan; the defaults are the contract's (app/contract/space.ts ScanOptions).
struct Settings {
  std::string path;  // the folder, as given; RunScan resolves it to an absolute path
  uint64_t minBytes = 1;
  bool includeHidden = true;
  bool skipPackages = true;
  bool skipCloudFolders = true;
  std::string scanId;  // copied into the result and every progress report
  // Also name every sparse file (Result::sparsePaths): the sparse-file listing walks by the scan's
  // rules with minBytes above any file, so the walk is all it does.
  bool sparsePaths = false;
  // A file of digests from the last scan of this folder (scan/hash_cache.h): files whose inode,
  // size and times are unchanged are not read again, and the file is rewritten once every digest
  // is known.
  // Empty: no cache.
  std::string hashCache;
  // Also name every file at least this large that is not sparse (Result::largePaths): the
  // candidates for punching their runs of zeros into holes. 0: none.
  uint64_t largePaths = 0;
  // The digests remembered for the hash cache held in memory before they are written, sorted, to
  // runs beside it (merged into it at the end): 72 bytes a hashed file. 0: all are held.
  // 16 MiB: beside the digests Refine holds (17 bytes a candidate), a first scan of a million
  // files peaked at 175 MB, at 32 MiB at 187.
  uint64_t spillBytes = 16 * 1024 * 1024;
};

enum class Phase { kWalk, kCompare, kHash, kSharing, kDone };
const char* PhaseName(Phase phase);  // "walk", "compare", "hash", "sharing", "done"

// The contract's ScanProgress.
struct Progress {
  std::string scanId;
  Phase phase = Phase::kWalk;
  uint64_t files = 0;
  uint64_t bytes = 0;
  uint64_t bytesToHash = 0;
  uint64_t bytesHashed = 0;
  double seconds = 0;
  std::optional<double> secondsLeft;  // from the hashing rate so far
};

// The contract's DuplicateFile. (Field sizes matter: a scan of 100,000 files can hold 60,000.)
struct GroupFile {
  std::string path;
  uint64_t size = 0;
  uint64_t ino = 0;
  double mtimeMs = 0;
  double ctimeMs = 0;
  uint32_t links = 1;  // names of this file seen in the walk
  std::optional<bool> alreadyClone;
  std::optional<uint64_t> reclaimableBytes;
};

// The contract's DuplicateGroup.
struct Group {
  std::string id;  // "<size>-<first 16 hex digits of the digest>"
  uint64_t size = 0;
  size_t keeperIndex = 0;  // the keeper is files[keeperIndex]
  std::vector<GroupFile> files;
  uint64_t nominalBytes = 0;
  std::optional<uint64_t> sharedBytes;
  std::optional<uint64_t> reclaimableBytes;
  const char* note = nullptr;  // a fixed sentence, or null

  const std::string& keeper() const { return files[keeperIndex].path; }
};

// A result's groups, largest reclaimable first, each made (its files' paths written out) only when
// asked for, from the scan's own compact tables: made all at once they were most of a scan's
// memory (about 136 bytes a file in a group, 170 a group; 1.2 GB at ten million files).
class GroupList {
 public:
  class Source {
   public:
    virtual ~Source() = default;
    virtual size_t size() const = 0;
    virtual Group Make(size_t index) const = 0;
    virtual std::vector<const char*> Notes() const = 0;
    // A hint from a caller that makes the groups in order: group `index` is made next. The source
    // may start bringing what the groups after it are made from into the CPU's cache.
    virtual void MakingNext(size_t index) const { (void)index; }
  };
  GroupList() = default;
  explicit GroupList(std::shared_ptr<const Source> source) : source_(std::move(source)) {}

  size_t size() const { return source_ ? source_->size() : 0; }
  bool empty() const { return size() == 0; }
  // Group `index`, made now (a copy each time it is asked for).
  Group operator[](size_t index) const { return source_->Make(index); }
  // Said before making the groups in order, group `index` next: makes them faster.
  void MakingNext(size_t index) const {
    if (source_) source_->MakingNext(index);
  }
  // The notes the groups carry, each once (a few fixed sentences).
  std::vector<const char*> Notes() const {
    return source_ ? source_->Notes() : std::vector<const char*>{};
  }
  // Lets go of the tables the groups are made from (the walk's among them): the list is empty.
  void Release() { source_.reset(); }

 private:
  std::shared_ptr<const Source> source_;
};

struct StageSeconds {
  double walk = 0;
  double compare = 0;
  double hash = 0;
  double sharing = 0;
};

struct Skips {
  uint64_t symlinks = 0;
  uint64_t otherVolumes = 0;
  uint64_t extraHardLinks = 0;
  uint64_t special = 0;
  uint64_t excluded = 0;
  uint64_t unreadable = 0;
};

struct Totals {
  uint64_t nominalBytes = 0;
  std::optional<uint64_t> sharedBytes;
  std::optional<uint64_t> reclaimableBytes;
  uint64_t unknownGroups = 0;
};

struct SparseSummary {
  uint64_t files = 0;
  uint64_t logicalBytes = 0;
  uint64_t allocatedBytes = 0;
};

// The contract's ScanResult; fields in the contract's order (the JSON keeps it).
struct Result {
  std::string scanId;
  std::string root;
  std::optional<std::string> fsType;
  std::optional<bool> sharingSupported;
  uint64_t files = 0;
  uint64_t bytes = 0;
  double seconds = 0;
  StageSeconds stageSeconds;
  Skips skipped;
  GroupList groups;  // largest reclaimable first, unknown after known
  Totals totals;
  SparseSummary sparse;
  std::vector<std::string> sparsePaths;  // with Settings::sparsePaths: the files counted in sparse
  // File content read to compare files: files opened and bytes read (0 and 0 when every digest
  // came from the hash cache).
  uint64_t filesRead = 0;
  uint64_t bytesRead = 0;
  std::vector<std::string> largePaths;  // with Settings::largePaths
};

using ProgressFn = std::function<void(const Progress&)>;

// Runs the scan on the calling thread (with a few helper threads for reading and for storage
// queries). `progress`, when set, is called on the calling thread at each phase change and about
// every 100 ms. False with `err` when the folder cannot be scanned (code ENOENT, ENOTDIR, EACCES,
// ...; message a sentence for people) or when `cancel` is set (code ECANCELED): a cancel is seen
// within 100 ms, even while a slow disk finishes a read in the background.
bool RunScan(const Settings& settings, const CancelPtr& cancel, const ProgressFn& progress,
             Result* out, SysError* err);

}  // namespace scan
}  // namespace plumb
