// Listing folders for the space scan's walk: one call reads a folder and the metadata of all its
// entries (readdir + fstatat on POSIX). The skip rules (volumes, hidden files, packages, hard
// links) are the caller's: scan/scan.cc. The addon's listFolders exposes this primitive alone, so
// tests see each OS's listing directly.
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
// when the folder itself cannot be read.
bool ListFolder(const std::string& dir, std::vector<FolderEntry>* out, SysError* err);

// Per-OS: the metadata of `path` itself (a symbolic link is not followed: its kind is kSymlink),
// as ListFolder gives it for an entry; `out->name` is left empty. False with `err` (syscall
// "lstat") when it cannot be read.
bool StatPath(const std::string& path, FolderEntry* out, SysError* err);

// Per-OS: `path` made absolute against the working folder and normalized ("." and ".." resolved
// by name, separators collapsed, no trailing separator but at a root), as Node's path.resolve.
std::string AbsolutePath(const std::string& path);

}  // namespace plumb
