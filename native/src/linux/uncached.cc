// Linux uncached I/O: O_DIRECT, alignment from statx(STATX_DIOALIGN) or the logical block size,
// fdatasync, and posix_fadvise(DONTNEED) as the drop-cache hint for buffered fallbacks.
#include "posix/uncached.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>

#include "linux/block_device.h"

namespace plumb {
namespace {

constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = 0x858458f6;

}  // namespace

int DirectOpenFlags() { return O_DIRECT; }

bool MakeUncached(int fd) {
  // tmpfs accepts O_DIRECT since Linux 6.6, but its pages are the storage: that is not uncached.
  struct statfs fs;
  if (fstatfs(fd, &fs) == 0 && (static_cast<long>(fs.f_type) == kTmpfsMagic ||
                                static_cast<long>(fs.f_type) == kRamfsMagic)) {
    return false;
  }
  return true;
}

bool MakeBuffered(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_DIRECT) == 0;
}

uint32_t DirectIoAlignment(int fd) {
#ifdef STATX_DIOALIGN
  struct statx sx;
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
      sx.stx_dio_offset_align > 0) {
    return sx.stx_dio_offset_align;
  }
#endif
  struct stat st;
  if (fstat(fd, &st) == 0) {
    if (auto size = DescribeBlockDevice(st.st_dev).logicalBlockSize) return *size;
  }
  return 4096;  // no answer: the largest common logical block size is always accepted
}

int FlushToMedium(int fd, const char** syscall) {
  *syscall = "fdatasync";
  return fdatasync(fd) == 0 ? 0 : errno;
}

const char* CacheEvictionMethod() { return "posix_fadvise(POSIX_FADV_DONTNEED)"; }

void DropCachedPages(int fd, uint64_t) { posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); }

}  // namespace plumb
