#include "scan/hash_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

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

void HashCache::Load(const std::string& file, uint64_t dev) {
  old_.clear();
  loaded_ = false;
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

void HashCache::Remember(const FileIdentity& id, bool whole, const uint8_t* digest) {
  Record r{};
  r.ino = id.ino;
  r.size = id.size;
  r.mtimeMs = id.mtimeMs;
  r.ctimeMs = id.ctimeMs;
  r.flags = whole ? kWhole : kEdge;
  std::memcpy(whole ? r.whole : r.edge, digest, kDigestBytes);
  next_.push_back(r);
}

bool HashCache::Save(const std::string& file, uint64_t dev, SysError* err) {
  // In place (a stable sort would borrow a copy of them all): a file's records are merged below
  // whatever their order, as each sets its own digests.
  const auto byIno = [](const Record& a, const Record& b) { return a.ino < b.ino; };
  if (!std::is_sorted(next_.begin(), next_.end(), byIno))
    std::sort(next_.begin(), next_.end(), byIno);
  // A file hashed at its edges and then whole has two records: merge them.
  size_t kept = 0;
  for (size_t i = 0; i < next_.size(); ++i) {
    if (kept > 0 && next_[kept - 1].ino == next_[i].ino) {
      Record& into = next_[kept - 1];
      if (next_[i].flags & kEdge) std::memcpy(into.edge, next_[i].edge, kDigestBytes);
      if (next_[i].flags & kWhole) std::memcpy(into.whole, next_[i].whole, kDigestBytes);
      into.flags |= next_[i].flags;
    } else {
      next_[kept++] = next_[i];
    }
  }
  next_.resize(kept);
  // What the file holds already (records have no padding: equal bytes are equal records).
  if (loaded_ && next_.size() == old_.size() &&
      (next_.empty() || std::memcmp(next_.data(), old_.data(), next_.size() * sizeof(Record)) == 0))
    return true;
  // Only a cache file is replaced: anything else at its name (a FIFO, a folder) stays.
  FolderEntry existing;
  SysError absent;
  if (StatPath(file, &existing, &absent) && existing.kind != EntryKind::kFile) {
    *err =
        SysError{"EFTYPE", "rename", file, file + " is not a file; the hash cache was not kept."};
    return false;
  }
  const std::string temp = file + ".tmp";
  FILE* out = OpenRegularFile(temp, "wb");
  if (!out) {
    *err = SysError{"EIO", "fopen", temp, "Cannot write the scan's hash cache " + temp + "."};
    return false;
  }
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.dev = dev;
  header.count = next_.size();
  bool ok = std::fwrite(&header, sizeof header, 1, out) == 1 &&
            (next_.empty() ||
             std::fwrite(next_.data(), sizeof(Record), next_.size(), out) == next_.size());
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
