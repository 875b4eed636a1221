#include "scan/hash_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
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

bool SameIdentity(const FileIdentity& id, uint64_t ino, uint64_t size, double mtimeMs,
                  double ctimeMs) {
  return id.ino == ino && id.size == size && id.mtimeMs == mtimeMs && id.ctimeMs == ctimeMs;
}

}  // namespace

HashCache::~HashCache() { DropRuns(); }

void HashCache::DropRuns() {
  for (const std::string& run : runs_) std::remove(run.c_str());
  runs_.clear();
}

void HashCache::Reserve(size_t more) {
  size_t want = next_.size() + more;
  if (spillBytes_ > 0) want = std::min(want, static_cast<size_t>(spillBytes_ / sizeof(Record)) + 1);
  next_.reserve(want);
}

void HashCache::Spill() {
  const auto byIno = [](const Record& a, const Record& b) { return a.ino < b.ino; };
  std::sort(next_.begin(), next_.end(), byIno);
  const uint64_t bytes = next_.size() * sizeof(Record);
  // The run, the cache file it is merged into and a tenth of the volume must stay free.
  VolumeFacts volume;
  SysError ignored;
  const size_t slash = file_.find_last_of("/\\");
  const std::string folder = slash == std::string::npos ? "." : file_.substr(0, slash + 1);
  if (!QueryVolume(folder, &volume, &ignored) ||
      volume.availableBytes < 2 * bytes + volume.totalBytes / 10)
    return;  // held in memory instead: the scan goes on
  const std::string run = file_ + ".run" + std::to_string(runs_.size());
  FILE* out = OpenRegularFile(run, "wb");
  if (!out) return;
  bool ok = std::fwrite(next_.data(), sizeof(Record), next_.size(), out) == next_.size();
  ok = std::fclose(out) == 0 && ok;
  if (!ok) {
    std::remove(run.c_str());
    return;
  }
  runs_.push_back(run);
  next_.clear();  // its room is kept for the next run
}

// Writes the records kept from the last scan, those in memory and those in runs, in inode order,
// a file's records merged into one; `count` gets how many were written.
bool HashCache::MergeRuns(FILE* out, uint64_t* count) {
  const auto byIno = [](const Record& a, const Record& b) { return a.ino < b.ino; };
  std::sort(next_.begin(), next_.end(), byIno);
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
  sources[0].at = old_.data();
  sources[0].end = old_.data() + old_.size();
  sources[0].kept = &kept_;
  sources[1].at = next_.data();
  sources[1].end = next_.data() + next_.size();
  bool ok = true;
  for (size_t r = 0; r < runs_.size(); ++r) {
    sources[2 + r].in = OpenRegularFile(runs_[r], "rb");
    ok = ok && sources[2 + r].in != nullptr;
  }
  const auto advance = [](Source& s) {
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
  if (ok)
    for (Source& s : sources) advance(s);
  Record pending{};
  bool hasPending = false;
  *count = 0;
  while (ok) {
    Source* next = nullptr;
    for (Source& s : sources)
      if (s.live && (!next || s.head.ino < next->head.ino)) next = &s;
    if (!next) break;
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
  old_.clear();
  loaded_ = false;
  file_ = file;
  // Runs a stopped scan left (its process ended before it could delete them).
  for (size_t n = 0; std::remove((file + ".run" + std::to_string(n)).c_str()) == 0; ++n) {
  }
  FILE* in = OpenRegularFile(file, "rb");
  if (!in) return;
  // The count must match the file's length, so a damaged header never asks for a huge array.
  long length = -1;
  if (std::fseek(in, 0, SEEK_END) == 0) length = std::ftell(in);
  std::rewind(in);
  Header header{};
  const bool ok =
      length >= static_cast<long>(sizeof header) &&
      std::fread(&header, sizeof header, 1, in) == 1 &&
      std::memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.dev == dev &&
      header.count == (static_cast<uint64_t>(length) - sizeof header) / sizeof(Record) &&
      (static_cast<uint64_t>(length) - sizeof header) % sizeof(Record) == 0;
  if (ok) {
    old_.resize(static_cast<size_t>(header.count));
    if (!old_.empty() && std::fread(old_.data(), sizeof(Record), old_.size(), in) != old_.size())
      old_.clear();
    if (!std::is_sorted(old_.begin(), old_.end(),
                        [](const Record& a, const Record& b) { return a.ino < b.ino; }))
      old_.clear();
    loaded_ = old_.size() == header.count;
  }
  std::fclose(in);
  kept_.assign(old_.size(), false);
  keptCount_ = 0;
}

const uint8_t* HashCache::Find(const FileIdentity& id, bool whole, size_t* cursor) const {
  // Forward from the cursor: a step at a time while the records are near (dense inodes), then in
  // doubling strides, then a binary search within the last stride.
  const auto before = [](const Record& r, uint64_t ino) { return r.ino < ino; };
  size_t from = std::min(*cursor, old_.size());
  size_t stride = 1;
  while (from + stride < old_.size() && old_[from + stride].ino < id.ino) {
    from += stride;
    stride *= 2;
  }
  const auto at = std::lower_bound(
      old_.begin() + static_cast<ptrdiff_t>(from),
      old_.begin() + static_cast<ptrdiff_t>(std::min(from + stride + 1, old_.size())), id.ino,
      before);
  *cursor = static_cast<size_t>(at - old_.begin());
  if (at == old_.end() || !SameIdentity(id, at->ino, at->size, at->mtimeMs, at->ctimeMs))
    return nullptr;
  if (whole) return (at->flags & kWhole) ? at->whole : nullptr;
  return (at->flags & kEdge) ? at->edge : nullptr;
}

void HashCache::Keep(size_t cursor) {
  if (cursor >= old_.size() || kept_[cursor]) return;
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
  if (spillBytes_ > 0 && next_.size() * sizeof(Record) >= spillBytes_ && !file_.empty()) Spill();
}

bool HashCache::Save(const std::string& file, uint64_t dev, SysError* err) {
  // All the file held still holds and nothing was added: it stays as it is.
  if (loaded_ && next_.empty() && runs_.empty() && keptCount_ == old_.size()) return true;
  if (runs_.empty()) {
    // The records kept, in place, then those added; sorted in place (a stable sort would borrow a
    // copy of them all): a file's records are merged below whatever their order, as each sets its
    // own digests. (With runs on disk, MergeRuns merges them all as it writes them.)
    size_t held = 0;
    for (size_t i = 0; i < old_.size(); ++i)
      if (kept_[i]) old_[held++] = old_[i];
    old_.resize(held);
    kept_ = {};
    if (old_.empty()) {
      old_ = std::move(next_);  // a first scan: its records, not a copy of them beside them
    } else {
      old_.insert(old_.end(), next_.begin(), next_.end());
    }
    next_ = {};
    std::vector<Record>& records = old_;
    const auto byIno = [](const Record& a, const Record& b) { return a.ino < b.ino; };
    if (!std::is_sorted(records.begin(), records.end(), byIno))
      std::sort(records.begin(), records.end(), byIno);
    // A file hashed at its edges and then whole has two records: merge them.
    size_t kept = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      if (kept > 0 && records[kept - 1].ino == records[i].ino) {
        Record& into = records[kept - 1];
        if (records[i].flags & kEdge) std::memcpy(into.edge, records[i].edge, kDigestBytes);
        if (records[i].flags & kWhole) std::memcpy(into.whole, records[i].whole, kDigestBytes);
        into.flags |= records[i].flags;
      } else {
        records[kept++] = records[i];
      }
    }
    records.resize(kept);
  }
  // Only a cache file is replaced: anything else at its name (a FIFO, a folder) stays.
  FolderEntry existing;
  SysError absent;
  if (StatPath(file, &existing, &absent) && existing.kind != EntryKind::kFile) {
    DropRuns();
    *err =
        SysError{"EFTYPE", "rename", file, file + " is not a file; the hash cache was not kept."};
    return false;
  }
  const std::string temp = file + ".tmp";
  FILE* out = OpenRegularFile(temp, "wb");
  if (!out) {
    DropRuns();
    *err = SysError{"EIO", "fopen", temp, "Cannot write the scan's hash cache " + temp + "."};
    return false;
  }
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.dev = dev;
  bool ok;
  if (runs_.empty()) {
    header.count = old_.size();
    ok =
        std::fwrite(&header, sizeof header, 1, out) == 1 &&
        (old_.empty() || std::fwrite(old_.data(), sizeof(Record), old_.size(), out) == old_.size());
  } else {
    // The count is known once all are merged: written again then.
    ok = std::fwrite(&header, sizeof header, 1, out) == 1 && MergeRuns(out, &header.count) &&
         std::fseek(out, 0, SEEK_SET) == 0 && std::fwrite(&header, sizeof header, 1, out) == 1;
  }
  ok = std::fclose(out) == 0 && ok;
  if (!ok || !Replace(temp, file)) {
    std::remove(temp.c_str());
    *err = SysError{"EIO", "rename", file, "Cannot write the scan's hash cache " + file + "."};
    return false;
  }
  return true;
}

}  // namespace scan
}  // namespace plumb
