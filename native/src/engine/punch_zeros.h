// The OS-blind part of PunchZeroBlocks (space.h): read a chunk, punch its blocks of zeros, and
// stop as soon as the per-OS guard says another program may have the file open.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "space.h"

namespace plumb {

// A file held open under its OS's guard, as the loop below needs it.
class GuardedFile {
 public:
  virtual ~GuardedFile() = default;
  // True while no other program can have opened the file since the guard was taken.
  virtual bool GuardHeld() = 0;
  // Reads up to `bytes` at `offset` (fewer only at the end of the file).
  virtual bool ReadAt(uint64_t offset, char* buffer, size_t bytes, size_t* got, SysError* err) = 0;
  // Deallocates [offset, offset + length), keeping the size.
  virtual bool Punch(uint64_t offset, uint64_t length, SysError* err) = 0;
};

// Punches the whole zero blocks inside `ranges`, one chunk at a time: each chunk is read and
// its zero blocks punched in one step that starts under a held guard and may last at most
// `stepLimitSeconds` before its last punch (see linux/space.cc for why that bound makes a step
// safe even when the guard breaks during it). A guard found broken after a step stops the loop
// (kOpened), as does a step that ran out of time (kTooSlow), before anything more is punched.
bool PunchZeroChunks(GuardedFile& file, const std::vector<ByteRange>& ranges, uint64_t blockBytes,
                     double stepLimitSeconds, PunchResult* out, SysError* err);

}  // namespace plumb
