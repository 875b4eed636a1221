// Incompressible test data: random bytes made once per process and rotated, so generating data
// never caps the transfer rate; unique per-block stamps defeat controllers that deduplicate.
#include <cstring>
#include <mutex>
#include <random>

#include "io.h"

namespace plumb {
namespace {

constexpr size_t kPoolBytes = 8u << 20;
constexpr size_t kStampBlock = 4096;

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Pool {
  std::vector<uint64_t> words;
  uint64_t salt = 0;
};

const Pool& RandomPool() {
  static Pool pool;
  static std::once_flag once;
  std::call_once(once, [] {
    std::random_device device;
    uint64_t state = (static_cast<uint64_t>(device()) << 32) ^ device() ^ MonotonicNanos();
    pool.words.resize(kPoolBytes / sizeof(uint64_t));
    for (uint64_t& word : pool.words) word = SplitMix(&state);
    pool.salt = SplitMix(&state);
  });
  return pool;
}

}  // namespace

void FillIncompressible(uint8_t* data, size_t bytes, uint64_t rotation) {
  const Pool& pool = RandomPool();
  const auto* source = reinterpret_cast<const uint8_t*>(pool.words.data());
  // Start each buffer at a different 4 KiB-aligned place in the pool.
  size_t from =
      static_cast<size_t>((rotation * 2654435761u) % (kPoolBytes / kStampBlock)) * kStampBlock;
  size_t done = 0;
  while (done < bytes) {
    size_t n = std::min(bytes - done, kPoolBytes - from);
    std::memcpy(data + done, source + from, n);
    done += n;
    from = 0;
  }
}

void StampBlocks(uint8_t* data, size_t bytes, uint64_t* sequence) {
  const uint64_t salt = RandomPool().salt;
  for (size_t at = 0; at + sizeof(uint64_t) <= bytes; at += kStampBlock) {
    uint64_t stamp = (++*sequence) * 0x9e3779b97f4a7c15ull ^ salt;
    std::memcpy(data + at, &stamp, sizeof stamp);
  }
}

}  // namespace plumb
