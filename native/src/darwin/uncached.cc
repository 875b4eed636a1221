// macOS uncached I/O: F_NOCACHE on the fd, F_FULLFSYNC to get past the drive's cache, and a
// shared mapping invalidated with msync(MS_INVALIDATE) to drop the file's cached pages.
#include "posix/uncached.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

namespace plumb {

int DirectOpenFlags() { return 0; }

bool MakeUncached(int fd) { return fcntl(fd, F_NOCACHE, 1) != -1; }

bool MakeBuffered(int fd) { return fcntl(fd, F_NOCACHE, 0) != -1; }

// F_NOCACHE takes any alignment but page-aligned transfers avoid a copy.
uint32_t DirectIoAlignment(int) { return static_cast<uint32_t>(getpagesize()); }

int FlushToMedium(int fd, const char** syscall) {
  *syscall = "fcntl(F_FULLFSYNC)";
  if (fcntl(fd, F_FULLFSYNC) != -1) return 0;
  // Some file systems (network, FAT on USB) do not support F_FULLFSYNC: fsync is the best there is.
  *syscall = "fsync";
  return fsync(fd) == 0 ? 0 : errno;
}

const char* CacheEvictionMethod() { return "msync(MS_INVALIDATE) on a shared mapping"; }

void DropCachedPages(int fd, uint64_t bytes) {
  if (bytes == 0) return;
  void* map = mmap(nullptr, static_cast<size_t>(bytes), PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return;
  msync(map, static_cast<size_t>(bytes), MS_INVALIDATE);
  munmap(map, static_cast<size_t>(bytes));
}

}  // namespace plumb
