// File descriptors on Linux and macOS: opened so that no path can make a call wait for ever (a
// FIFO, socket or device is refused, checked on the open descriptor), closed on every path out
// of a function, and opened for reading without touching the access time of the user's files
// where that is allowed.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <string>

#include "plumb.h"

namespace plumb {

// Owns a descriptor (or -1) and closes it when it goes out of scope.
struct Fd {
  int fd = -1;
  explicit Fd(int value) : fd(value) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// What a path must name for a call to use it.
enum class PathKind { kFile, kFolder, kFileOrFolder };

// open(2) of `path` with `flags` (O_CLOEXEC added) that never waits: opening a FIFO blocks until
// another program opens its other end, reading one until it writes, and /dev/zero never ends.
// So the open is non-blocking, the type is checked with fstat on the descriptor itself (a stat
// before the open could be raced by a swap), and O_NONBLOCK is cleared only for what `kind`
// allows. -1 with `err` when it fails: code EFTYPE for a FIFO, socket or device, EISDIR or
// ENOTDIR for a folder or a file where the other was wanted. `noAtime`: O_NOATIME where the OS has
// it and allows it (the file's owner or CAP_FOWNER). `st`, when given, gets the descriptor's fstat.
int OpenChecked(const std::string& path, int flags, PathKind kind, SysError* err, mode_t mode = 0,
                bool noAtime = false, struct stat* st = nullptr);

// A regular file opened for reading (by default) without following a last symbolic link or
// touching its access time; `st`, when given, gets its fstat.
inline int OpenQuietly(const std::string& path, SysError* err, int flags = O_RDONLY | O_NOFOLLOW,
                       struct stat* st = nullptr) {
  return OpenChecked(path, flags, PathKind::kFile, err, 0, true, st);
}

}  // namespace plumb
