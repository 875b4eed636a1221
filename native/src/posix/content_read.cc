// ContentReader on Linux and macOS: regular files only (OpenQuietly: never waits on a FIFO or
// device), without following links, O_NOATIME where permitted, and posix_fadvise SEQUENTIAL |
// NOREUSE for files past one read-ahead where the OS has it (Linux; macOS reads ahead anyway).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "content_hash.h"
#include "posix/fd.h"

namespace plumb {

ContentReader::~ContentReader() {
  if (handle_ >= 0) close(static_cast<int>(handle_));
}

bool ContentReader::Open(const std::string& path, SysError* err) {
  path_ = path;
  struct stat st;
  const int fd = OpenQuietly(path, err, O_RDONLY | O_NOFOLLOW, &st);
  if (fd < 0) return false;
  size_ = static_cast<uint64_t>(st.st_size);
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
    const ssize_t got = pread(static_cast<int>(handle_), static_cast<char*>(data) + *done,
                              bytes - *done, static_cast<off_t>(offset + *done));
    if (got < 0) {
      if (errno == EINTR) continue;
      *err = MakeSysError(errno, "read", path_);
      return false;
    }
    if (got == 0) break;
    *done += static_cast<size_t>(got);
  }
  return true;
}

}  // namespace plumb
