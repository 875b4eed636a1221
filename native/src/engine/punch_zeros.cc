#include "engine/punch_zeros.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace plumb {
namespace {

// Read and punched per step: small enough that a step takes milliseconds, far inside any guard's
// time, and large enough that few steps are needed.
constexpr uint64_t kChunkBytes = 4ull << 20;

bool AllZero(const char* bytes, size_t length) {
  static const char kZeros[4096] = {};
  while (length > 0) {
    const size_t n = std::min(length, sizeof kZeros);
    if (std::memcmp(bytes, kZeros, n) != 0) return false;
    bytes += n;
    length -= n;
  }
  return true;
}

}  // namespace

bool PunchZeroChunks(GuardedFile& file, const std::vector<ByteRange>& ranges, uint64_t blockBytes,
                     double stepLimitSeconds, PunchResult* out, SysError* err) {
  out->outcome = PunchOutcome::kDone;
  out->punchedBytes = 0;
  if (blockBytes == 0) {
    *err = MakeSysError(EINVAL, "punchZeros", "");
    err->message = "the block size must be above 0";
    return false;
  }
  const uint64_t chunkBytes = std::max(blockBytes, kChunkBytes / blockBytes * blockBytes);
  std::vector<char> buffer(static_cast<size_t>(chunkBytes));
  using Clock = std::chrono::steady_clock;
  for (const ByteRange& range : ranges) {
    // Only whole blocks can become holes.
    const uint64_t first = (range.offset + blockBytes - 1) / blockBytes * blockBytes;
    const uint64_t end = (range.offset + range.length) / blockBytes * blockBytes;
    for (uint64_t at = first; at < end; at += chunkBytes) {
      const Clock::time_point started = Clock::now();
      if (!file.GuardHeld()) {
        out->outcome = PunchOutcome::kOpened;
        return true;
      }
      size_t got = 0;
      const size_t want = static_cast<size_t>(std::min(chunkBytes, end - at));
      if (!file.ReadAt(at, buffer.data(), want, &got, err)) return false;
      const size_t whole = got / blockBytes * blockBytes;
      size_t block = 0;
      while (block < whole) {
        if (!AllZero(buffer.data() + block, blockBytes)) {
          block += blockBytes;
          continue;
        }
        size_t runEnd = block + blockBytes;
        while (runEnd < whole && AllZero(buffer.data() + runEnd, blockBytes)) runEnd += blockBytes;
        const std::chrono::duration<double> spent = Clock::now() - started;
        if (spent.count() > stepLimitSeconds) {
          out->outcome = PunchOutcome::kTooSlow;
          return true;
        }
        if (!file.Punch(at + block, runEnd - block, err)) return false;
        out->punchedBytes += runEnd - block;
        block = runEnd;
      }
      if (!file.GuardHeld()) {
        out->outcome = PunchOutcome::kOpened;
        return true;
      }
      if (got < want) break;  // the file ends here
    }
  }
  return true;
}

}  // namespace plumb
