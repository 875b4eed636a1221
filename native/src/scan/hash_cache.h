// Digests from the last scan of a folder, reused by a rescan for every file whose identity (inode,
// size, modification and change times, on the same device) has not changed, so an unchanged tree
// is scanned without reading any file's content.
//
// Only files the scan hashed are kept (same-size candidates), 72 bytes each, sorted by inode: the
// cache of a million hashed files is 72 MB on disk. A rescan maps the last scan's file rather than
// reading it into memory, and keeps resident only the part its lookups are at (they go through it
// in inode order; mapped_file.h), so it holds no more than a first scan: read whole, ten million
// files' records were 720 MB beside the walk's table. It marks the old records it still vouches
// for and adds records only for the files it read, until its digests are known; then the kept
// and the new records are merged, in one pass, into a new file written to a temporary name and
// renamed, so a crash leaves the old cache or the new one; a missing, foreign or damaged file is
// an empty cache.
#pragma once

#include <cstdint>
#include <future>
#include <string>
#include <vector>

#include "content_hash.h"
#include "mapped_file.h"
#include "plumb.h"

namespace plumb {
namespace scan {

// What identifies a file's content without reading it.
struct FileIdentity {
  uint64_t ino = 0;
  uint64_t size = 0;
  double mtimeMs = 0;
  double ctimeMs = 0;
};

class HashCache {
 public:
  static constexpr size_t kDigestBytes = LaneHash128::kDigestBytes;

  HashCache() = default;
  HashCache(HashCache&&) = default;
  HashCache& operator=(HashCache&&) = default;  // (over a cache Save wrote: no runs left)
  ~HashCache();  // deletes the runs of a scan that stopped before Save

  // Records remembered beyond `bytes` are sorted and written as a run beside the cache file
  // (FILE.run0, FILE.run1, ...), while the disk keeps room; Save merges them and deletes them.
  // A run is written on a thread of its own while the scan goes on reading, from half of `bytes`
  // while the other half takes new records. 0: all are held (ten million hashed files: 720 MB).
  void SpillBeyond(uint64_t bytes) { spillBytes_ = bytes; }

  // Reads the cache at `file` for the volume `dev`; empty when it is missing or unusable.
  void Load(const std::string& file, uint64_t dev);

  // The cached digest of the file (its edges, or all of it when `whole`), or null when the file
  // changed or was not hashed that way. Files asked for in increasing inode order, each with the
  // same `cursor` (0 at first), are found by walking the cache forward once: a rescan of a million
  // files spent more on a binary search per file (a cache miss per step) than on the rest of it.
  // The pages of the file behind the cursor are let go as it moves on.
  const uint8_t* Find(const FileIdentity& id, bool whole, size_t* cursor);

  // Keeps the record Find just found (at `cursor`) for the next scan, as it is: a rescan of an
  // unchanged tree copies nothing (its new records and the old ones were 43 MB each at 1M files).
  void Keep(size_t cursor);

  // Whether the last scan left no records to find (a first scan).
  bool empty() const { return oldCount_ == 0; }

  // Makes room for `more` Remember calls at once (up to a run).
  void Reserve(size_t more);

  // Keeps a digest this scan computed for the next one.
  void Remember(const FileIdentity& id, bool whole, const uint8_t* digest);

  // Writes what this scan kept and remembered (only that: files gone or changed are forgotten),
  // unless that is all the file holds already (an unchanged tree): the file is then left as it is.
  // The last scan's file is let go either way.
  bool Save(const std::string& file, uint64_t dev, SysError* err);

 private:
  struct Record {
    uint64_t ino;
    uint64_t size;
    double mtimeMs;
    double ctimeMs;
    uint32_t flags;  // kEdge | kWhole: which digests are set
    uint32_t reserved;
    uint8_t edge[kDigestBytes];
    uint8_t whole[kDigestBytes];
  };
  static_assert(sizeof(Record) == 72, "the file format is 72 bytes a record");
  static constexpr uint32_t kEdge = 1;
  static constexpr uint32_t kWhole = 2;

  MappedFile map_;               // the last scan's file
  const Record* old_ = nullptr;  // its records, sorted by ino, in map_
  size_t oldCount_ = 0;
  std::vector<bool> kept_;  // old_[i] still holds (Keep)
  size_t keptCount_ = 0;
  std::vector<Record> next_;  // added by this scan; merged with those kept by Save

  // Lets go of the mapped pages before old_[cursor] once they are more than a few MB; all of them
  // when the cursor went back (the next batch's lookups start again from the lowest inode).
  void LetGoBefore(size_t cursor);
  uint64_t residentFrom_ = 0;  // bytes of map_ before this are let go
  size_t lastCursor_ = 0;

  // Hands next_ to a thread that sorts it and writes it as a run (kept in memory when the disk has
  // no room for it), once the run before is written.
  void Spill();
  // Waits for the run being written, if any, and takes it into runs_ (or its records back).
  void FinishSpill();
  size_t RunRecords() const;  // records remembered before they are handed to be written
  bool WriteMerged(FILE* out, uint64_t* count);
  void DropRuns();
  std::string file_;  // the cache file (Load's), beside which runs are written
  uint64_t spillBytes_ = 0;
  std::vector<std::string> runs_;  // sorted by ino, each
  struct Spilled {
    std::string run;              // the run written; empty when it could not be
    std::vector<Record> records;  // its records, when it could not be written; else emptied
  };
  std::future<Spilled> spilling_;  // the run being written
  std::vector<Record> spare_;      // the last run's room, for the records after the next
};

}  // namespace scan
}  // namespace plumb
