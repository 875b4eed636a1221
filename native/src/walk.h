// Listing folders for the space scan's walk: one call reads a folder and the metadata of all its
// entries (readdir + fstatat on POSIX) so JavaScript makes one request per folder, not per file.
// The skip rules (volumes, hidden files, packages, hard links) stay in app/core/space/walk.ts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plumb.h"

namespace plumb {

enum class EntryKind : uint8_t {
  kFile = 0,
  kFolder = 1,
  kSymlink = 2,
  kSpecial = 3,     // FIFO, socket, device
  kUnreadable = 4,  // listed, but its metadata could not be read
};

struct FolderEntry {
  std::string name;
  EntryKind kind = EntryKind::kUnreadable;
  uint64_t dev = 0;
  uint64_t ino = 0;
  uint64_t links = 0;
  uint64_t size = 0;
  uint64_t allocatedBytes = 0;
  double mtimeMs = 0;
  double ctimeMs = 0;
};

// Per-OS: every entry of `dir` but "." and "..", symbolic links not followed. False with `err`
// when the folder itself cannot be read; ENOTSUP where the OS has no backend yet (the caller then
// lists with Node's fs).
bool ListFolder(const std::string& dir, std::vector<FolderEntry>* out, SysError* err);

}  // namespace plumb
