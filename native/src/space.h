// Space primitives (clones, shared extents, sparse files): plain structs and per-OS functions.
// Only napi/space.cc touches N-API; posix/, linux/, darwin/ and win/ implement these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plumb.h"

namespace plumb {

// One mapped extent of a file: where it is in the file, where on the device, and whether the file
// system says another file (or snapshot) references the same blocks.
struct FileExtent {
  uint64_t logical = 0;
  uint64_t physical = 0;
  uint64_t length = 0;
  bool shared = false;
};

// How a file's data is stored. Fields the OS cannot tell stay std::nullopt.
struct FileSharing {
  uint64_t logicalBytes = 0;
  uint64_t allocatedBytes = 0;
  // Physical extents (Linux FIEMAP). nullopt when the OS has no such map or an extent's address is
  // unknown (inline data, unwritten delayed allocation): then sharing must be reported as unknown.
  std::optional<std::vector<FileExtent>> extents;
  std::optional<uint64_t> sharedBytes;    // bytes the file system flags as shared
  std::optional<bool> compressed;         // transparent compression that a clone would lose
  std::optional<std::string> cloneId;     // macOS: files with equal clone ids share storage
  std::optional<uint64_t> privateBytes;   // macOS: bytes only this file holds
  std::optional<uint32_t> cloneRefcount;  // macOS: how many files share its clone
};

bool QueryFileSharing(const std::string& path, FileSharing* out, SysError* err);

// Kernel-verified deduplication of all of `target` onto `source` (Linux FIDEDUPERANGE, in chunks).
// The files must have equal sizes. `differs` is set when the kernel found different bytes; chunks
// before that point may already share storage (their bytes were equal, so no content changed).
struct DedupeOutcome {
  uint64_t bytesDeduped = 0;
  bool differs = false;
};
bool DedupeWholeFile(const std::string& source, const std::string& target, DedupeOutcome* out,
                     SysError* err);

// Whether the file system holding `file` can share storage between files (clones, dedupe).
// std::nullopt when it cannot be told without changing anything.
bool QuerySharingSupport(const std::string& file, std::optional<bool>* out, SysError* err);

// Creates `target` (which must not exist) as a clone of `source`: FICLONE, clonefile,
// FSCTL_DUPLICATE_EXTENTS_TO_FILE. On failure no `target` is left behind.
bool CloneFile(const std::string& source, const std::string& target, SysError* err);

// Copies owner, mode, extended attributes (ACLs included), flags and times (access, modification,
// birth where settable) from `from` to `to`. Times are set last.
bool CopyMetadata(const std::string& from, const std::string& to, SysError* err);

// What a replacement must still find in the original: the facts recorded when its clone was
// verified. Times in nanoseconds since the epoch; ctime is checked before the swap only (a rename
// changes it).
struct FileFacts {
  uint64_t ino = 0;
  uint64_t size = 0;
  int64_t mtimeNs = 0;
  int64_t ctimeNs = 0;
};

enum class ReplaceOutcome {
  kReplaced,  // the clone is at `target`, the original is gone
  kInUse,     // another program has the original open: nothing was changed
  kChanged,   // the original no longer matches `expected` or the clone: nothing was changed
  kOpened,    // another program opened it during the replace: swapped back, nothing changed
};
struct ReplaceResult {
  ReplaceOutcome outcome = ReplaceOutcome::kInUse;
  // Set when a program opened the clone while the original also had to stay: the clone was kept
  // under this visible name instead of being removed, so no write to either is lost.
  std::string keptPath;
};

// Replaces `target` by `clone` (a verified clone with the target's metadata, in the same folder)
// so that no write to the original can be lost: the original is held so that nobody else can
// have it open (Linux write lease; Windows open without sharing; macOS asks who has it open),
// swapped atomically with the clone (renameat2 RENAME_EXCHANGE, renamex_np RENAME_SWAP; Windows
// renames by the held handles through `swapPath`, a free name beside it), verified again (size,
// mtime, every byte against the clone) and only then removed. If it changed or was opened, the
// swap is undone and the clone left at `clone` for the caller to remove.
bool ReplaceWithClone(const std::string& clone, const std::string& target,
                      const std::string& swapPath, const FileFacts& expected, ReplaceResult* out,
                      SysError* err);

#ifndef _WIN32
// The per-OS pieces of the POSIX ReplaceWithClone (posix/space.cc); linux/ and darwin/ define them.
// Takes the guard on `fd` (open for reading, at `path`): Linux a write lease, which the kernel
// grants only when no other open file description exists and breaks at any later open or
// truncate; macOS: no other process has `path` open. `*busy` when another program has it.
bool GuardExclusive(int fd, const std::string& path, bool* busy, SysError* err);
// Whether the guard still holds: nobody opened the file since (the file is now at `path`).
bool StillExclusive(int fd, const std::string& path);
void ReleaseExclusive(int fd);
// Swaps the two names atomically: each then names the other's file.
bool ExchangePaths(const std::string& a, const std::string& b, SysError* err);
// The per-OS pieces of the POSIX PunchZeroBlocks. Deallocates [offset, offset + length) of the
// open `fd`, keeping the size (Linux fallocate PUNCH_HOLE, macOS F_PUNCHHOLE).
bool PunchRange(int fd, const std::string& path, uint64_t offset, uint64_t length, SysError* err);
// How long a step that starts under GuardExclusive stays covered by it (linux/space.cc says why).
double GuardedStepSeconds();
#endif

// Sets access and modification times exactly (nanoseconds since the epoch), not following links.
bool SetTimes(const std::string& path, int64_t atimeNs, int64_t mtimeNs, SysError* err);

// The byte ranges of a file that hold data; everything else reads as zeros without storage.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};
struct DataMap {
  uint64_t logicalBytes = 0;
  uint64_t allocatedBytes = 0;
  std::vector<ByteRange> data;
  bool holesSupported = true;  // false: the file system cannot report holes (all data)
};
bool QueryDataRanges(const std::string& path, DataMap* out, SysError* err);

// How a punch of zero blocks ended.
enum class PunchOutcome {
  kDone,     // every whole block of zeros inside the ranges is a hole now
  kInUse,    // another program had the file open: nothing was changed
  kOpened,   // another program opened it meanwhile: stopped there, the rest left as it was
  kTooSlow,  // a step outlasted the guard's proof (a disk stalled for seconds): stopped there
};
struct PunchResult {
  PunchOutcome outcome = PunchOutcome::kDone;
  uint64_t punchedBytes = 0;
};

// Deallocates the whole blocks (`blockBytes`, from the start of the file) inside `ranges` that
// read as zeros, keeping the size, then puts the access and modification times back: the file
// reads the same after. Each block is read and punched while no other program can write the
// file, so a write can never land between the read that found zeros and the punch (which would
// lose it): Linux holds a write lease, which it grants only while no other open exists and which
// makes a later opener wait; Windows holds the only handle, shared with nobody. macOS has no such
// guard, so there it must only be given a file no other program knows: a fresh clone, which the
// guarded ReplaceWithClone then swaps in.
bool PunchZeroBlocks(const std::string& path, const std::vector<ByteRange>& ranges,
                     uint64_t blockBytes, PunchResult* out, SysError* err);

// Flushes the file system holding `path` (Linux syncfs, which also runs deferred frees such as
// XFS inode inactivation), so free space read afterwards reflects what was released.
bool FlushVolume(const std::string& path, SysError* err);

// Creates `path` (which must not exist) as a sparse file of `bytes`, all hole.
bool CreateSparseFile(const std::string& path, uint64_t bytes, SysError* err);

// Moves `path` to its drive's Recycle Bin through the Windows shell (undoable from Explorer). Where
// the shell would delete it for good instead (no Recycle Bin on the drive, a file larger than the
// bin holds), it is refused with ENOTRASH and left in place. ENOTSUP on other OSes, whose Trash is
// a folder (app/core/space/trash-can.ts).
struct RecycledFile {
  std::string recycledPath;  // the file inside the Recycle Bin ($R...)
  std::string infoPath;      // the bin's record of where it came from ($I...)
};
bool RecycleFile(const std::string& path, RecycledFile* out, SysError* err);

}  // namespace plumb
