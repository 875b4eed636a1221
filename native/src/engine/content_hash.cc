// LaneHash128: see content_hash.h for the definition and why a non-cryptographic hash is enough.
#include "content_hash.h"

#include <algorithm>
#include <cstring>

namespace plumb {
namespace {

constexpr uint64_t kWord = 0xd3825d45c8c46b53ull;
constexpr uint64_t kLane = 0xa61de6f7df077aafull;
constexpr uint64_t kLength = 0xb526222e0a97a263ull;
constexpr uint64_t kMixA = 0xab4bc577884e65c7ull;
constexpr uint64_t kMixB = 0xca8be992eefc87b1ull;
constexpr uint64_t kSeeds[4] = {0xa49a37290c995057ull, 0xa75e7a62e375108bull, 0xb61e4f4a2c62ace7ull,
                                0x3c6ef372fe94f82bull};

inline uint64_t Rotl(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

// Little-endian load (every platform Plumb builds for is little-endian; memcpy keeps it
// aligned-safe).
inline uint64_t Load64(const uint8_t* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Every input bit reaches every output bit (xor-shift-multiply, bijective).
inline uint64_t Avalanche(uint64_t x) {
  x ^= x >> 32;
  x *= kMixA;
  x ^= x >> 29;
  x *= kMixB;
  x ^= x >> 32;
  return x;
}

}  // namespace

LaneHash128::LaneHash128() { std::memcpy(lanes_, kSeeds, sizeof lanes_); }

void LaneHash128::Stripe(const uint8_t* stripe) {
  for (int i = 0; i < 4; ++i)
    lanes_[i] = Rotl(lanes_[i] + Load64(stripe + 8 * i) * kWord, 31) * kLane;
}

void LaneHash128::Update(const uint8_t* data, size_t bytes) {
  totalBytes_ += bytes;
  if (pendingBytes_ > 0) {
    const size_t take = std::min(bytes, kStripeBytes - pendingBytes_);
    std::memcpy(pending_ + pendingBytes_, data, take);
    pendingBytes_ += take;
    data += take;
    bytes -= take;
    if (pendingBytes_ < kStripeBytes) return;
    Stripe(pending_);
    pendingBytes_ = 0;
  }
  uint64_t a = lanes_[0], b = lanes_[1], c = lanes_[2], d = lanes_[3];
  for (; bytes >= kStripeBytes; data += kStripeBytes, bytes -= kStripeBytes) {
    a = Rotl(a + Load64(data) * kWord, 31) * kLane;
    b = Rotl(b + Load64(data + 8) * kWord, 31) * kLane;
    c = Rotl(c + Load64(data + 16) * kWord, 31) * kLane;
    d = Rotl(d + Load64(data + 24) * kWord, 31) * kLane;
  }
  lanes_[0] = a, lanes_[1] = b, lanes_[2] = c, lanes_[3] = d;
  std::memcpy(pending_, data, bytes);
  pendingBytes_ = bytes;
}

void LaneHash128::Finish(uint8_t digest[kDigestBytes]) {
  if (pendingBytes_ > 0) {
    std::memset(pending_ + pendingBytes_, 0, kStripeBytes - pendingBytes_);
    Stripe(pending_);
    pendingBytes_ = 0;
  }
  uint64_t v[4];
  for (int i = 0; i < 4; ++i) v[i] = Avalanche(lanes_[i] ^ ((totalBytes_ + i) * kLength));
  const uint64_t low = Avalanche(v[0] ^ Rotl(v[1], 17) ^ Rotl(v[2], 34) ^ Rotl(v[3], 51));
  const uint64_t high = Avalanche(v[3] ^ Rotl(v[2], 13) ^ Rotl(v[0], 29) ^ Rotl(v[1], 47) ^ low);
  for (int i = 0; i < 8; ++i) {
    digest[i] = static_cast<uint8_t>(low >> (8 * i));
    digest[8 + i] = static_cast<uint8_t>(high >> (8 * i));
  }
}

}  // namespace plumb
