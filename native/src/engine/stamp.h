// Capacity proof (`--verify`): every 4 KiB block a timed write puts on the drive carries a header
// saying which file and which offset it belongs to, and a check over the rest of the block; the
// verifying read finds the blocks a drive lost, wrapped, repeated or corrupted.
//
// Header, little-endian, at the start of each block (the rest stays the incompressible pool data):
//   0  u32 magic "PLV1"   4  u32 run tag   8  u32 file id   12 u32 header version (1)
//   16 u64 the block's byte offset in its file
//   24 u64 check: the block's body hash (LaneHash128 of bytes 32..end, low half) mixed with the
//          fields above, so a header copied onto another body, or flipped bits anywhere, fail it.
// A last block shorter than the header is not stamped (nor checked).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io.h"

namespace plumb {

constexpr size_t kStampBlockBytes = 4096;
constexpr size_t kStampHeaderBytes = 32;

// Fills the stamps while the write buffer is filled: body hashes of the (reused) slot buffers are
// taken once, before the clock starts, so stamping a chunk costs 32 bytes per block.
class BlockStamper {
 public:
  BlockStamper(const StampSpec& spec, uint64_t fileBytes) : spec_(spec), fileBytes_(fileBytes) {}
  bool enabled() const { return spec_.enabled; }
  // A write slot just filled with pool data (slots are numbered in the order they are added).
  void AddSlot(const uint8_t* data, size_t bytes);
  // Stamps `bytes` of slot `slot`'s `data`, to be written at file offset `offset`; false (and
  // nothing done) when stamping is off.
  bool Stamp(size_t slot, uint8_t* data, size_t bytes, uint64_t offset) const;

 private:
  StampSpec spec_;
  uint64_t fileBytes_;
  std::vector<std::vector<uint64_t>> bodyHashes_;  // per slot, per block
};

// What a bad block held instead of its own stamp.
enum class BlockFinding {
  kOtherBlock,  // an intact stamped block of another place (file id, offset; maybe another run)
  kZeros,       // all zero bytes: the data was lost
  kDamaged,     // anything else: stamp or body changed
};

struct VerifyRequest {
  std::string path;
  StampSpec stamp;  // the file id and run tag the file was written with
  bool buffered = false;
  CancelPtr cancel;
  // Called on the worker thread about every 100 ms.
  std::function<void(uint64_t bytesDone, uint64_t nanos)> onProgress;
};

struct VerifyOutcome {
  uint64_t bytes = 0;         // read back (the file's size)
  uint64_t checkedBytes = 0;  // in blocks that carry a stamp
  uint64_t badBytes = 0;      // in blocks whose stamp or body is wrong
  uint64_t badBlocks = 0;
  bool anyBad = false;
  uint64_t firstBadOffset = 0;
  BlockFinding firstBadFinding = BlockFinding::kDamaged;
  // For kOtherBlock: whose block it was.
  uint32_t foundRunTag = 0, foundFileId = 0;
  uint64_t foundOffset = 0;
  bool direct = false;
  uint64_t nanos = 0;
};

bool RunVerifyFile(const VerifyRequest& request, VerifyOutcome* out, SysError* err);

}  // namespace plumb
