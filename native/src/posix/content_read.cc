// ContentReader on Linux and macOS: regular files only (OpenQuietly: never waits on a FIFO or
// device), without following links, O_NOATIME where permitted, and posix_fadvise SEQUENTIAL |
// NOREUSE for files past one read-ahead where the OS has it (Linux; macOS reads ahead anyway).
//
// On Linux, a reader opened with dropPages asks for RWF_DONTCACHE (6.14; a file system opts in:
// ext4 from 6.17, XFS 6.15): pages a read brings into the cache are dropped once copied out,
// pages already cached are left alone. The scan asks for it when its reading would flood the
// cache (ReadsWouldFloodCache): ten million small files read plainly each brought a 4 KiB page in,
// which pushed out the user's cached files and half the inodes the scan needed (4.7 of the 10
// million stayed cached; with the flag all did). A kernel or file system without it refuses the
// flag (EOPNOTSUPP): its files are read plainly.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "content_hash.h"
#include "posix/fd.h"

#ifdef __linux__
#include <sys/uio.h>

#include <atomic>
#include <cstdint>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080  // linux/fs.h from 6.14
#endif
#endif

namespace plumb {

#ifdef __linux__
namespace {
// The last file system (st_dev) that refused RWF_DONTCACHE: its files are not asked again. (On a
// kernel without the flag every one refuses; a scan across two such costs a call per switch.)
std::atomic<uint64_t> refusedDevice{UINT64_MAX};
}  // namespace
#else
// macOS's F_NOCACHE could do what RWF_DONTCACHE does; untried, as macOS code only links here.
bool ReadsWouldFloodCache(uint64_t) { return false; }
#endif

ContentReader::~ContentReader() {
  if (handle_ >= 0) close(static_cast<int>(handle_));
}

bool ContentReader::Open(const std::string& path, SysError* err, bool dropPages) {
  path_ = path;
  struct stat st;
  const int fd = OpenQuietly(path, err, O_RDONLY | O_NOFOLLOW, &st);
  if (fd < 0) return false;
  size_ = static_cast<uint64_t>(st.st_size);
#ifdef __linux__
  device_ = static_cast<uint64_t>(st.st_dev);
  dontCache_ = dropPages && refusedDevice.load(std::memory_order_relaxed) != device_;
#else
  (void)dropPages;
#endif
#if defined(POSIX_FADV_SEQUENTIAL) && defined(POSIX_FADV_NOREUSE)
  // A file the first read-ahead covers gains nothing from the advice: two calls saved a small file.
  constexpr uint64_t kOneReadAhead = 128 * 1024;  // Linux's default read-ahead window
  if (size_ > kOneReadAhead) {
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    posix_fadvise(fd, 0, 0, POSIX_FADV_NOREUSE);
  }
#endif
  handle_ = fd;
  return true;
}

bool ContentReader::Size(uint64_t* bytes, SysError*) {
  *bytes = size_;  // the descriptor's own, from the open
  return true;
}

bool ContentReader::ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err) {
  *done = 0;
  while (*done < bytes) {
    char* into = static_cast<char*>(data) + *done;
    const off_t at = static_cast<off_t>(offset + *done);
    ssize_t got;
#ifdef __linux__
    if (dontCache_) {
      struct iovec part = {into, bytes - *done};
      got = preadv2(static_cast<int>(handle_), &part, 1, at, RWF_DONTCACHE);
      if (got < 0 && (errno == EOPNOTSUPP || errno == ENOSYS)) {
        dontCache_ = false;
        refusedDevice.store(device_, std::memory_order_relaxed);
        continue;
      }
    } else {
      got = pread(static_cast<int>(handle_), into, bytes - *done, at);
    }
#else
    got = pread(static_cast<int>(handle_), into, bytes - *done, at);
#endif
    if (got < 0) {
      if (errno == EINTR) continue;
      *err = MakeSysError(errno, "read", path_);
      return false;
    }
    if (got == 0) break;
    *done += static_cast<size_t>(got);
    // A short read that reached the size the open found is the end of the file: asking again would
    // only return 0, one call more per small file (ten million of them in a big tree). A short
    // read short of that size (a network or FUSE file system's) reads on.
    if (*done < bytes && offset + *done >= size_) break;
  }
  return true;
}

}  // namespace plumb
