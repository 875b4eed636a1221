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

// A file opened to read its content: no access-time update where the OS allows it, symbolic links
// not followed, the OS told reads will be sequential and used once.
class ContentReader {
 public:
  ContentReader() = default;
  ContentReader(const ContentReader&) = delete;
  ContentReader& operator=(const ContentReader&) = delete;
  ~ContentReader();

  bool Open(const std::string& path, SysError* err);
  bool Size(uint64_t* bytes, SysError* err);
  // Reads up to `bytes` at `offset`; *done < bytes only at end of file.
  bool ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err);

 private:
  intptr_t handle_ = -1;
  std::string path_;
#ifndef _WIN32
  uint64_t size_ = 0;  // the descriptor's, at the open (Windows asks the handle)
#endif
};

}  // namespace plumb
