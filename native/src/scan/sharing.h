// What turning a group of identical files into clones would really free, from how the file system
// says their data is stored. Nothing here guesses: where the OS cannot tell, the answer is unknown
// (std::nullopt).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "space.h"

namespace plumb {
namespace scan {

// Storage facts of one member of a group of identical files (from QueryFileSharing).
struct MemberStorage {
  uint64_t allocatedBytes = 0;
  // Physical extents (Linux FIEMAP, Windows ReFS refcounted extents); nullopt: the OS has no map.
  std::optional<std::vector<FileExtent>> extents;
  std::optional<std::string> cloneId;    // macOS: equal clone ids are full clones of each other
  std::optional<uint64_t> privateBytes;  // macOS: bytes only this file holds
};

struct GroupSharing {
  size_t keeperIndex = 0;  // the member the others should share storage with
  // Bytes of the copies (all but the keeper) already not taking space of their own.
  std::optional<uint64_t> sharedBytes;
  std::optional<uint64_t> reclaimableBytes;
  // Per member, in order: what making it a clone of the keeper frees (0 for the keeper), and
  // whether it already shares all its storage with the keeper.
  std::vector<std::optional<uint64_t>> memberReclaimable;
  std::vector<std::optional<bool>> memberAlreadyClone;
  const char* note = nullptr;  // a fixed sentence, or null
};

// The keeper, bytes already shared and bytes reclaimable for a group of identical files. Members
// are in order of preference for keeping (the first wins ties).
GroupSharing SharingOfGroup(const std::vector<MemberStorage>& members);

// The general extent case (a sweep over every member's physical ranges), which SharingOfGroup
// skips for plain copies; exposed so tests can check the shortcut gives the same answer.
GroupSharing SweepExtents(const std::vector<MemberStorage>& members);

}  // namespace scan
}  // namespace plumb
