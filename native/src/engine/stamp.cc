// Block stamps for the capacity proof and the verifying read (see stamp.h).
#include "engine/stamp.h"

#include <algorithm>
#include <cstring>

#include "content_hash.h"

namespace plumb {
namespace {

constexpr uint32_t kMagic = 0x31564c50;  // "PLV1" little-endian
constexpr uint32_t kHeaderVersion = 1;

uint64_t BodyHash(const uint8_t* block, size_t blockBytes) {
  LaneHash128 hash;
  hash.Update(block + kStampHeaderBytes, blockBytes - kStampHeaderBytes);
  uint8_t digest[LaneHash128::kDigestBytes];
  hash.Finish(digest);
  uint64_t low;
  std::memcpy(&low, digest, sizeof low);
  return low;
}

struct Header {
  uint32_t magic, runTag, fileId, version;
  uint64_t offset, check;
};
static_assert(sizeof(Header) == kStampHeaderBytes, "the header is 32 bytes");

// Binds the header to the body: two independent multiplies, so stamping stays as cheap as filling.
uint64_t Check(const Header& h, uint64_t bodyHash) {
  return bodyHash ^ (h.offset * 0x9e3779b97f4a7c15ull) ^
         ((uint64_t{h.fileId} << 32 | h.runTag) * 0xc2b2ae3d27d4eb4full);
}

uint64_t BlockBytesAt(uint64_t fileBytes, uint64_t offset) {
  return std::min<uint64_t>(kStampBlockBytes, fileBytes - offset);
}

bool Cancelled(const VerifyRequest& request) {
  return request.cancel && request.cancel->cancelled.load(std::memory_order_relaxed);
}

// Why a block is not the one expected.
BlockFinding Classify(const uint8_t* block, size_t bytes, const Header& found, VerifyOutcome* out) {
  if (std::all_of(block, block + bytes, [](uint8_t b) { return b == 0; }))
    return BlockFinding::kZeros;
  if (found.magic == kMagic && found.version == kHeaderVersion &&
      found.check == Check(found, BodyHash(block, bytes))) {
    out->foundRunTag = found.runTag;
    out->foundFileId = found.fileId;
    out->foundOffset = found.offset;
    return BlockFinding::kOtherBlock;
  }
  return BlockFinding::kDamaged;
}

}  // namespace

void BlockStamper::AddSlot(const uint8_t* data, size_t bytes) {
  if (!spec_.enabled) return;
  // Only the blocks a small file will use (the rest of a slot is never written).
  bytes = static_cast<size_t>(std::min<uint64_t>(bytes, fileBytes_));
  std::vector<uint64_t> hashes;
  for (size_t at = 0; at + kStampBlockBytes <= bytes; at += kStampBlockBytes)
    hashes.push_back(BodyHash(data + at, kStampBlockBytes));
  bodyHashes_.push_back(std::move(hashes));
}

bool BlockStamper::Stamp(size_t slot, uint8_t* data, size_t bytes, uint64_t offset) const {
  if (!spec_.enabled) return false;
  const uint64_t* hashes = bodyHashes_[slot].data();
  const size_t slotBlocks = bodyHashes_[slot].size();
  Header h{kMagic, spec_.runTag, spec_.fileId, kHeaderVersion, 0, 0};
  uint64_t words[2];  // magic, run tag, file id and version: the same in every block of the file
  std::memcpy(words, &h, sizeof words);
  for (size_t at = 0, index = 0; at < bytes && offset + at < fileBytes_;
       at += kStampBlockBytes, ++index) {
    const uint64_t blockBytes = BlockBytesAt(fileBytes_, offset + at);
    if (blockBytes < kStampHeaderBytes) break;
    h.offset = offset + at;
    // A block cut short by the end of the file is hashed now (one per file).
    const bool whole = blockBytes == kStampBlockBytes && index < slotBlocks;
    h.check = Check(h, whole ? hashes[index] : BodyHash(data + at, blockBytes));
    // Word by word (one struct copy through the stack stalled store forwarding: 7 ms per GB).
    const uint64_t out[4] = {words[0], words[1], h.offset, h.check};
    for (int w = 0; w < 4; ++w) std::memcpy(data + at + 8 * w, &out[w], 8);
  }
  return true;
}

bool RunVerifyFile(const VerifyRequest& request, VerifyOutcome* out, SysError* err) {
  constexpr uint32_t kChunk = 4u << 20;
  AlignedBuffer buffer(kChunk, kBufferAlignment, true);
  if (!buffer.ok()) {
    *err = MakeError("ENOMEM", "verifyFile", request.path, "cannot allocate the read buffer");
    return false;
  }
  IoFile file;
  const uint64_t start = MonotonicNanos();
  if (!file.Open(request.path, OpenOptions{FileAccess::kRead, request.buffered, false}, err))
    return false;
  uint64_t size = 0;
  if (!file.Size(&size, err)) return false;
  // Uncached where direct I/O is not available: the OS forgets the file's pages first.
  if (!file.direct()) file.DropCache(size);
  out->direct = file.direct();
  uint64_t lastTick = start;
  uint64_t offset = 0;
  while (offset < size) {
    if (Cancelled(request)) {
      *err = MakeError("ECANCELED", "read", request.path, "the operation was cancelled");
      return false;
    }
    size_t done = 0;
    if (!file.ReadAt(buffer.data(), kChunk, offset, &done, err)) return false;
    if (done == 0) break;
    for (size_t at = 0; at < done; at += kStampBlockBytes) {
      const uint64_t blockOffset = offset + at;
      const size_t blockBytes = static_cast<size_t>(BlockBytesAt(size, blockOffset));
      if (blockBytes < kStampHeaderBytes) break;
      const uint8_t* block = buffer.data() + at;
      Header found;
      std::memcpy(&found, block, sizeof found);
      Header expected{kMagic,         request.stamp.runTag, request.stamp.fileId,
                      kHeaderVersion, blockOffset,          0};
      out->checkedBytes += blockBytes;
      if (std::memcmp(&found, &expected, offsetof(Header, check)) == 0 &&
          found.check == Check(found, BodyHash(block, blockBytes)))
        continue;
      out->badBytes += blockBytes;
      out->badBlocks += 1;
      if (!out->anyBad) {
        out->anyBad = true;
        out->firstBadOffset = blockOffset;
        out->firstBadFinding = Classify(block, blockBytes, found, out);
      }
    }
    offset += done;
    const uint64_t now = MonotonicNanos();
    if (request.onProgress && now - lastTick >= kProgressIntervalNanos) {
      lastTick = now;
      request.onProgress(offset, now - start);
    }
    if (done < kChunk) break;
  }
  out->bytes = offset;
  if (!file.Close(err)) return false;
  out->nanos = MonotonicNanos() - start;
  return true;
}

}  // namespace plumb
