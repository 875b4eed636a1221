// File descriptors on Linux and macOS: closed on every path out of a function, and opened for
// reading without touching the access time of the user's files where that is allowed.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

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

// open(2) with `flags` plus O_NOATIME where the OS has it and allows it (the file's owner or
// CAP_FOWNER; EPERM otherwise, and then a plain open). -1 with errno set when both fail.
inline int OpenQuietly(const std::string& path, int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC) {
#ifdef O_NOATIME
  int fd = open(path.c_str(), flags | O_NOATIME);
  if (fd >= 0 || errno != EPERM) return fd;
#endif
  return open(path.c_str(), flags);
}

}  // namespace plumb
