// ContentReader on Linux and macOS: regular files only (OpenQuietly: never waits on a FIFO or
// device), without following links, O_NOATIME where permitted,
// and posix_fadvise SEQUENTIAL | NOREUSE where the OS has it (Linux; macOS reads ahead anyway).
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
  const int fd = OpenQuietly(path, err);
  if (fd < 0) return false;
#if defined(POSIX_FADV_SEQUENTIAL) && defined(POSIX_FADV_NOREUSE)
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  posix_fadvise(fd, 0, 0, POSIX_FADV_NOREUSE);
#endif
  handle_ = fd;
  return true;
}

bool ContentReader::Size(uint64_t* bytes, SysError* err) {
  struct stat st;
  if (fstat(static_cast<int>(handle_), &st) != 0) {
    *err = MakeSysError(errno, "fstat", path_);
    return false;
  }
  *bytes = static_cast<uint64_t>(st.st_size);
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
