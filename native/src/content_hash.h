// Content hashing for duplicate detection: a fast 128-bit hash (OS-blind, engine/content_hash.cc)
// and the per-OS reading it needs (posix/content_read.cc, win/content_read.cc).
//
// The hash is NOT cryptographic. It only sorts files into candidate groups; every duplicate is
// compared byte for byte (or by the kernel's FIDEDUPERANGE) before anything is changed, so a
// collision could at worst cost a wasted comparison, never data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "plumb.h"

namespace plumb {

// Plumb lane hash, 128 bits: four 64-bit lanes each take one 8-byte word of every 32-byte stripe
// (lane = rotl(lane + word * kWord, 31) * kLane, a bijection in both lane and word), the last
// partial stripe is zero-padded, and the total length goes into the finish, which avalanches each
// lane and folds all four into two 64-bit halves. Digest: low half then high half, little-endian.
// tests/native/content-hash.test.ts holds an independent TypeScript copy of this definition.
class LaneHash128 {
 public:
  static constexpr size_t kStripeBytes = 32;
  static constexpr size_t kDigestBytes = 16;

  LaneHash128();
  void Update(const uint8_t* data, size_t bytes);
  void Finish(uint8_t digest[kDigestBytes]);

 private:
  void Stripe(const uint8_t* stripe);

  uint64_t lanes_[4];
  uint8_t pending_[kStripeBytes];
  size_t pendingBytes_ = 0;
  uint64_t totalBytes_ = 0;
};

// Whether reading `bytes` of file content plainly would flood the page cache: more than half of
// what it can keep for this process (Linux: the lesser of MemAvailable and the memory cgroup's
// room, linux/cache_room.cc). Such reads cannot stay cached for a next pass; they only push out
// the user's cached files and the inodes a scan needs, so they are better read with
// ContentReader's dropPages. False where Plumb has no such reads (macOS and Windows read plainly).
bool ReadsWouldFloodCache(uint64_t bytes);

// A file opened to read its content: no access-time update where the OS allows it, symbolic links
// not followed, the OS told reads will be sequential and used once. With `dropPages` (Linux) the
// pages a read brings into the cache are dropped once copied out (RWF_DONTCACHE) and pages
// already cached are left alone: the read leaves the cache as it found it.
class ContentReader {
 public:
  ContentReader() = default;
  ContentReader(const ContentReader&) = delete;
  ContentReader& operator=(const ContentReader&) = delete;
  ~ContentReader();

  bool Open(const std::string& path, SysError* err, bool dropPages = false);
  bool Size(uint64_t* bytes, SysError* err);
  // Reads up to `bytes` at `offset`; *done < bytes only at end of file.
  bool ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err);

 private:
  intptr_t handle_ = -1;
  std::string path_;
#ifndef _WIN32
  uint64_t size_ = 0;  // the descriptor's, at the open (Windows asks the handle)
#endif
#ifdef __linux__
  uint64_t device_ = 0;     // the file system's (st_dev), remembered if it refuses RWF_DONTCACHE
  bool dontCache_ = false;  // reads ask for RWF_DONTCACHE
#endif
};

}  // namespace plumb
