#include "scan/hash_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <future>
#include <utility>

#include "walk.h"

#ifdef _WIN32
#include <windows.h>
#endif

namespace plumb {
namespace scan {
namespace {

// Replaces `to` with `from` (Windows' rename refuses an existing target).
bool Replace(const std::string& from, const std::string& to) {
#ifdef _WIN32
  auto wide = [](const std::string& s) {
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
  };
  return MoveFileExW(wide(from).c_str(), wide(to).c_str(), MOVEFILE_REPLACE_EXISTING) != 0;
#else
  return std::rename(from.c_str(), to.c_str()) == 0;
#endif
}

const char kMagic[8] = {'P', 'L', 'U', 'M', 'B', 'H', 'C', '1'};

struct Header {
  char magic[8];
  uint64_t dev;
  uint64_t count;
};

// Records (and runs of them) are kept in inode order.
constexpr auto kByIno = [](const auto& a, const auto& b) { return a.ino < b.ino; };

// Mapped pages of the last scan's file are let go in steps of this many bytes behind a reader.
constexpr uint64_t kResidentBytes = 1u << 20;

bool SameIdentity(const FileIdentity& id, uint64_t ino, uint64_t size, double mtimeMs,
                  double ctimeMs) {
  return id.ino == ino && id.size == size && id.mtimeMs == mtimeMs && id.ctimeMs == ctimeMs;
}

}  // namespace

HashCache::~HashCache() { DropRuns(); }

void HashCache::DropRuns() {
  FinishSpill();
  for (const std::string& run : runs_) std::remove(run.c_str());
  runs_.clear();
}

size_t HashCache::RunRecords() const {
  // Half of spillBytes_ takes new records while the other half is written.
  return std::max<size_t>(1, static_cast<size_t>(spillBytes_ / 2 / sizeof(Record)));
}

void HashCache::Reserve(size_t more) {
  size_t want = next_.size() + more;
  if (spillBytes_ > 0) want = std::min(want, RunRecords());
  next_.reserve(want);
}

void HashCache::Spill() {
  FinishSpill();
  if (spillBytes_ == 0) return;  // a run could not be written: all are held from now on
  // The run, the cache file it is merged into and a tenth of the volume must stay free.
  const uint64_t bytes = next_.size() * sizeof(Record);
  VolumeFacts volume;
  SysError ignored;
  const size_t slash = file_.find_last_of("/\\");
  const std::string folder = slash == std::string::npos ? "." : file_.substr(0, slash + 1);
  if (!QueryVolume(folder, &volume, &ignored) ||
      volume.availableBytes < 2 * bytes + volume.totalBytes / 10) {
    spillBytes_ = 0;  // all are held in memory instead: the scan goes on
    return;
  }
  std::string run = file_ + ".run" + std::to_string(runs_.size());
  std::vector<Record> records;
  records.swap(next_);
  next_.swap(spare_);  // the run before's room (none before the second run)
  next_.reserve(RunRecords());
  spilling_ = std::async(
      std::launch::async, [run = std::move(run), records = std::move(records)]() mutable {
        std::sort(records.begin(), records.end(), kByIno);
        FILE* out = OpenRegularFile(run, "wb");
        bool ok = out != nullptr;
        if (ok) {
          ok = std::fwrite(records.data(), sizeof(Record), records.size(), out) == records.size();
          ok = std::fclose(out) == 0 && ok;
          if (!ok) std::remove(run.c_str());
        }
        if (!ok) return Spilled{std::string(), std::move(records)};
        records.clear();  // its room is kept for a later run
        return Spilled{std::move(run), std::move(records)};
      });
}

void HashCache::FinishSpill() {
  if (!spilling_.valid()) return;
  Spilled done = spilling_.get();
  if (!done.run.empty()) {
    runs_.push_back(std::move(done.run));
    spare_ = std::move(done.records);
    return;
  }
  // Not written: its records are held, and so are all after them.
  next_.insert(next_.end(), done.records.begin(), done.records.end());
  spillBytes_ = 0;
}

// Writes the records kept from the last scan, those in memory and those in runs, in inode order,
// a file's records merged into one; `count` gets how many were written.
bool HashCache::WriteMerged(FILE* out, uint64_t* count) {
  FinishSpill();
  spare_ = {};
  std::sort(next_.begin(), next_.end(), kByIno);
  struct Source {
    FILE* in = nullptr;  // a run; else the records below
    const Record* at = nullptr;
    const Record* end = nullptr;
    const std::vector<bool>* kept = nullptr;  // the last scan's: only those kept
    size_t index = 0;
    Record head{};
    bool live = false;
  };
  std::vector<Source> sources(2 + runs_.size());
  sources[0].at = old_;
  sources[0].end = old_ + oldCount_;
  sources[0].kept = &kept_;
  sources[1].at = next_.data();
  sources[1].end = next_.data() + next_.size();
  bool ok = true;
  for (size_t r = 0; r < runs_.size(); ++r) {
    sources[2 + r].in = OpenRegularFile(runs_[r], "rb");
    ok = ok && sources[2 + r].in != nullptr;
  }
  const auto advance = [this](Source& s) {
    if (s.kept) LetGoBefore(s.index);  // the last scan's records: read once, in order
    if (s.in) {
      s.live = std::fread(&s.head, sizeof(Record), 1, s.in) == 1;
      return;
    }
    while (s.at < s.end && s.kept && !(*s.kept)[s.index]) {
      ++s.at;
      ++s.index;
    }
    s.live = s.at < s.end;
    if (s.live) {
      s.head = *s.at++;
      ++s.index;
    }
  };
  // The live sources in a heap by their next record's inode, the earlier source first among equal
  // ones (the last scan's, then this scan's in the order remembered): ten million records from 45
  // runs took 4.5 s to merge by looking at every source for each.
  std::vector<size_t> heap;
  const auto later = [&sources](size_t a, size_t b) {
    return sources[a].head.ino != sources[b].head.ino ? sources[a].head.ino > sources[b].head.ino
                                                      : a > b;
  };
  if (ok) {
    for (size_t i = 0; i < sources.size(); ++i) {
      advance(sources[i]);
      if (sources[i].live) heap.push_back(i);
    }
    std::make_heap(heap.begin(), heap.end(), later);
  }
  Record pending{};
  bool hasPending = false;
  *count = 0;
  while (ok && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Source* next = &sources[heap.back()];
    if (hasPending && pending.ino == next->head.ino) {
      // A file hashed at its edges and then whole has two records: merge them.
      if (next->head.flags & kEdge) std::memcpy(pending.edge, next->head.edge, kDigestBytes);
      if (next->head.flags & kWhole) std::memcpy(pending.whole, next->head.whole, kDigestBytes);
      pending.flags |= next->head.flags;
    } else {
      if (hasPending) {
        ok = std::fwrite(&pending, sizeof pending, 1, out) == 1;
        ++*count;
      }
      pending = next->head;
      hasPending = true;
    }
    advance(*next);
    if (next->live)
      std::push_heap(heap.begin(), heap.end(), later);
    else
      heap.pop_back();
  }
  if (ok && hasPending) {
    ok = std::fwrite(&pending, sizeof pending, 1, out) == 1;
    ++*count;
  }
  for (Source& s : sources)
    if (s.in) std::fclose(s.in);
  DropRuns();
  return ok;
}

void HashCache::Load(const std::string& file, uint64_t dev) {
  map_.Close();
  old_ = nullptr;
  oldCount_ = 0;
  residentFrom_ = 0;
  lastCursor_ = 0;
  file_ = file;
  // Runs a stopped scan left (its process ended before it could delete them).
  for (size_t n = 0; std::remove((file + ".run" + std::to_string(n)).c_str()) == 0; ++n) {
  }
  // The count must match the file's length, so a damaged header never reads past its end.
  Header header{};
  if (map_.Open(file) && map_.size() >= sizeof header) {
    std::memcpy(&header, map_.data(), sizeof header);
    const uint64_t body = map_.size() - sizeof header;
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.dev == dev &&
        body % sizeof(Record) == 0 && header.count == body / sizeof(Record)) {
      old_ = reinterpret_cast<const Record*>(map_.data() + sizeof header);
      oldCount_ = static_cast<size_t>(header.count);
    }
  }
  // Sorted, or unusable; looked at once, letting go of its pages as it goes.
  for (size_t i = 1; i < oldCount_; ++i) {
    if (kByIno(old_[i], old_[i - 1])) {
      oldCount_ = 0;
      break;
    }
    LetGoBefore(i);
  }
  LetGoBefore(0);
  if (oldCount_ == 0) {
    old_ = nullptr;
    map_.Close();
  }
  kept_.assign(oldCount_, false);
  keptCount_ = 0;
}

void HashCache::LetGoBefore(size_t cursor) {
  if (!map_.mapped()) return;
  const uint64_t at = sizeof(Header) + static_cast<uint64_t>(cursor) * sizeof(Record);
  if (cursor < lastCursor_) {
    map_.Forget(0, map_.size());
    residentFrom_ = 0;
  } else if (at >= residentFrom_ + kResidentBytes) {
    map_.Forget(residentFrom_, at);
    residentFrom_ = at;
  }
  lastCursor_ = cursor;
}

const uint8_t* HashCache::Find(const FileIdentity& id, bool whole, size_t* cursor) {
  // Forward from the cursor: a step at a time while the records are near (dense inodes), then in
  // doubling strides, then a binary search within the last stride.
  const auto before = [](const Record& r, uint64_t ino) { return r.ino < ino; };
  size_t from = std::min(*cursor, oldCount_);
  size_t stride = 1;
  while (from + stride < oldCount_ && old_[from + stride].ino < id.ino) {
    from += stride;
    stride *= 2;
  }
  const Record* at =
      std::lower_bound(old_ + from, old_ + std::min(from + stride + 1, oldCount_), id.ino, before);
  *cursor = static_cast<size_t>(at - old_);
  LetGoBefore(*cursor);
  if (at == old_ + oldCount_ || !SameIdentity(id, at->ino, at->size, at->mtimeMs, at->ctimeMs))
    return nullptr;
  if (whole) return (at->flags & kWhole) ? at->whole : nullptr;
  return (at->flags & kEdge) ? at->edge : nullptr;
}

void HashCache::Keep(size_t cursor) {
  if (cursor >= oldCount_ || kept_[cursor]) return;
  kept_[cursor] = true;
  ++keptCount_;
}

void HashCache::Remember(const FileIdentity& id, bool whole, const uint8_t* digest) {
  Record r{};
  r.ino = id.ino;
  r.size = id.size;
  r.mtimeMs = id.mtimeMs;
  r.ctimeMs = id.ctimeMs;
  r.flags = whole ? kWhole : kEdge;
  std::memcpy(whole ? r.whole : r.edge, digest, kDigestBytes);
  next_.push_back(r);
  if (spillBytes_ > 0 && next_.size() >= RunRecords() && !file_.empty()) Spill();
}

bool HashCache::Save(const std::string& file, uint64_t dev, SysError* err) {
  FinishSpill();
  // All the file held still holds and nothing was added: it stays as it is.
  if (oldCount_ > 0 && next_.empty() && runs_.empty() && keptCount_ == oldCount_) {
    map_.Close();
    return true;
  }
  const auto letGo = [this] {
    DropRuns();
    map_.Close();
  };
  // Only a cache file is replaced: anything else at its name (a FIFO, a folder) stays.
  FolderEntry existing;
  SysError absent;
  if (StatPath(file, &existing, &absent) && existing.kind != EntryKind::kFile) {
    letGo();
    *err =
        SysError{"EFTYPE", "rename", file, file + " is not a file; the hash cache was not kept."};
    return false;
  }
  const std::string temp = file + ".tmp";
  FILE* out = OpenRegularFile(temp, "wb");
  if (!out) {
    letGo();
    *err = SysError{"EIO", "fopen", temp, "Cannot write the scan's hash cache " + temp + "."};
    return false;
  }
  std::setvbuf(out, nullptr, _IOFBF, 1 << 20);  // written a record at a time
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.dev = dev;
  // The count is known once all are merged: written again then.
  bool ok = std::fwrite(&header, sizeof header, 1, out) == 1 && WriteMerged(out, &header.count) &&
            std::fseek(out, 0, SEEK_SET) == 0 && std::fwrite(&header, sizeof header, 1, out) == 1;
  ok = std::fclose(out) == 0 && ok;
  letGo();  // before the rename: Windows cannot replace a mapped file
  if (!ok || !Replace(temp, file)) {
    std::remove(temp.c_str());
    *err = SysError{"EIO", "rename", file, "Cannot write the scan's hash cache " + file + "."};
    return false;
  }
  return true;
}

}  // namespace scan
}  // namespace plumb
