// OpenChecked (posix/fd.h): a non-blocking open, the type read from the descriptor, then
// blocking I/O again for what may be used.
#include "posix/fd.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace plumb {
namespace {

// An open that meets another process's lease on the file fails at once when non-blocking (the
// lease is broken all the same); its holder lets go within moments (a guarded replace takes
// milliseconds), so the open is tried again for up to this long.
constexpr auto kLeaseWait = std::chrono::seconds(2);
constexpr auto kLeaseRetry = std::chrono::milliseconds(10);

const char* KindWords(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

bool Allowed(mode_t mode, PathKind kind) {
  switch (kind) {
    case PathKind::kFile: return S_ISREG(mode);
    case PathKind::kFolder: return S_ISDIR(mode);
    case PathKind::kFileOrFolder: return S_ISREG(mode) || S_ISDIR(mode);
  }
  return false;
}

SysError WrongKind(mode_t mode, PathKind kind, const char* syscall, const std::string& path) {
  if (kind == PathKind::kFile && S_ISDIR(mode)) return MakeSysError(EISDIR, syscall, path);
  if (kind == PathKind::kFolder && S_ISREG(mode)) return MakeSysError(ENOTDIR, syscall, path);
  const char* wanted = kind == PathKind::kFolder ? "a folder"
                       : kind == PathKind::kFile ? "a regular file"
                                                 : "a regular file or folder";
  return SysError{"EFTYPE", syscall, path,
                  std::string(KindWords(mode)) + ", not " + wanted +
                      " (Plumb does not open FIFOs, sockets or devices)"};
}

// `opened`: the flags the descriptor was opened with (O_NOATIME is dropped where refused).
int OpenOnce(const std::string& path, int flags, mode_t mode, bool noAtime, int* opened) {
#ifdef O_NOATIME
  if (noAtime) {
    *opened = flags | O_NOATIME;
    const int fd = open(path.c_str(), *opened, mode);
    if (fd >= 0 || errno != EPERM) return fd;
  }
#else
  (void)noAtime;
#endif
  *opened = flags;
  return open(path.c_str(), flags, mode);
}

}  // namespace

int OpenChecked(const std::string& path, int flags, PathKind kind, SysError* err, mode_t mode,
                bool noAtime, struct stat* st) {
  const int openFlags = flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  const auto deadline = std::chrono::steady_clock::now() + kLeaseWait;
  int opened = openFlags;
  int fd = OpenOnce(path, openFlags, mode, noAtime, &opened);
  while (fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kLeaseRetry);
    fd = OpenOnce(path, openFlags, mode, noAtime, &opened);
  }
  if (fd < 0) {
    const int cause = errno;
    // A FIFO opened for writing with no reader, or a socket: no descriptor to ask, so name it.
    struct stat named;
    if ((cause == ENXIO || cause == EOPNOTSUPP) && lstat(path.c_str(), &named) == 0 &&
        !S_ISREG(named.st_mode) && !S_ISDIR(named.st_mode)) {
      *err = WrongKind(named.st_mode, kind, "open", path);
    } else {
      *err = MakeSysError(cause, "open", path);
    }
    errno = cause;
    return -1;
  }
  struct stat own;
  if (!st) st = &own;
  if (fstat(fd, st) != 0) {
    *err = MakeSysError(errno, "fstat", path);
    close(fd);
    return -1;
  }
  if (!Allowed(st->st_mode, kind)) {
    *err = WrongKind(st->st_mode, kind, "open", path);
    close(fd);
    return -1;
  }
  // The status flags it was opened with, but blocking (F_SETFL ignores the access mode and the
  // creation flags): no F_GETFL first, one call fewer for each of a scan's millions of files.
  if (fcntl(fd, F_SETFL, opened & ~O_NONBLOCK) != 0) {
    *err = MakeSysError(errno, "fcntl(F_SETFL)", path);
    close(fd);
    return -1;
  }
  return fd;
}

FILE* OpenRegularFile(const std::string& path, const char* mode) {
  const bool write = mode[0] == 'w';
  SysError ignored;
  const int fd = OpenChecked(path, write ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, PathKind::kFile,
                             &ignored, 0666);
  if (fd < 0) return nullptr;
  FILE* file = fdopen(fd, mode);
  if (!file) close(fd);
  return file;
}

}  // namespace plumb
