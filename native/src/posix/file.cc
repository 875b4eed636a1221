// IoFile on POSIX: open/pread/pwrite/close; the Linux and macOS differences are in uncached.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "io.h"
#include "posix/fd.h"
#include "posix/uncached.h"

namespace plumb {

namespace {
#ifdef MADV_HUGEPAGE
constexpr size_t kHugePageBytes = 2u << 20;
constexpr size_t kHugeFromBytes = 1u << 20;  // smaller buffers would waste most of a huge page
#endif
}  // namespace

void* AllocateAligned(size_t bytes, size_t alignment, bool transfer) {
  if (bytes == 0) bytes = alignment;
#ifdef MADV_HUGEPAGE
  if (transfer && bytes >= kHugeFromBytes) {
    // Whole huge pages, asked for explicitly (transparent huge pages are often "madvise" only).
    const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* data = nullptr;
    if (posix_memalign(&data, kHugePageBytes, rounded) == 0) {
      madvise(data, rounded, MADV_HUGEPAGE);  // a hint: where refused, small pages serve
      return data;
    }
  }
#else
  (void)transfer;
#endif
  void* data = nullptr;
  if (posix_memalign(&data, alignment, bytes) != 0) return nullptr;
  return data;
}

void FreeAligned(void* data, size_t) { free(data); }

bool RemoveFile(const std::string& path) { return unlink(path.c_str()) == 0 || errno == ENOENT; }

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

IoFile::~IoFile() {
  if (handle_ >= 0) close(static_cast<int>(handle_));
}

bool IoFile::Open(const std::string& path, const OpenOptions& options, SysError* err) {
  path_ = path;
  int flags = 0;
  switch (options.access) {
    case FileAccess::kCreateTruncate: flags = O_WRONLY | O_CREAT | O_TRUNC; break;
    case FileAccess::kRead: flags = O_RDONLY; break;
    case FileAccess::kReadWrite: flags = O_RDWR | O_CREAT; break;
  }
  int fd = -1;
  direct_ = false;
  if (!options.buffered) {
    fd = OpenChecked(path, flags | DirectOpenFlags(), PathKind::kFile, err, 0644);
    // EINVAL: this file system refuses O_DIRECT at open (older tmpfs, some FUSE); go buffered.
    if (fd < 0 && !(err->code == "EINVAL" && err->syscall == "open" && DirectOpenFlags() != 0))
      return false;
    if (fd >= 0) {
      direct_ = MakeUncached(fd);
      if (!direct_ && !MakeBuffered(fd)) {
        close(fd);
        fd = -1;
      }
    }
  }
  if (fd < 0) {
    *err = SysError{};
    fd = OpenChecked(path, flags, PathKind::kFile, err, 0644);
    if (fd < 0) return false;
    direct_ = false;
  }
  handle_ = fd;
  alignment_ = direct_ ? DirectIoAlignment(fd) : 1;
  return true;
}

bool IoFile::WriteAt(const void* data, size_t bytes, uint64_t offset, SysError* err) {
  const int fd = static_cast<int>(handle_);
  const auto* at = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < bytes) {
    ssize_t n = pwrite(fd, at + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && RefuseDirect()) continue;
    if (n < 0) {
      *err = MakeSysError(errno, "write", path_);
      return false;
    }
    if (n == 0) {
      *err = MakeSysError(ENOSPC, "write", path_);
      return false;
    }
    done += static_cast<size_t>(n);
    transferred_ = true;
  }
  return true;
}

// Some file systems accept O_DIRECT at open and refuse the transfer (EINVAL): before the first
// byte moved, switch to buffered I/O (reported as such); later an EINVAL is a real error.
bool IoFile::RefuseDirect() {
  if (!direct_ || transferred_ || !MakeBuffered(static_cast<int>(handle_))) return false;
  direct_ = false;
  alignment_ = 1;
  return true;
}

bool IoFile::ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err) {
  const int fd = static_cast<int>(handle_);
  auto* at = static_cast<uint8_t*>(data);
  *done = 0;
  while (*done < bytes) {
    ssize_t n = pread(fd, at + *done, bytes - *done, static_cast<off_t>(offset + *done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && RefuseDirect()) continue;
    if (n < 0) {
      *err = MakeSysError(errno, "read", path_);
      return false;
    }
    if (n == 0) break;  // end of file
    *done += static_cast<size_t>(n);
    transferred_ = true;
    // A direct read that stops short of an aligned length has reached the end of the file.
    if (direct_ && (*done % alignment_) != 0) break;
  }
  return true;
}

bool IoFile::Flush(SysError* err) {
  const char* syscall = "fsync";
  int code = FlushToMedium(static_cast<int>(handle_), &syscall);
  if (code != 0) {
    *err = MakeSysError(code, syscall, path_);
    return false;
  }
  return true;
}

void IoFile::DropCache(uint64_t bytes) { DropCachedPages(static_cast<int>(handle_), bytes); }

bool IoFile::Size(uint64_t* bytes, SysError* err) {
  struct stat st;
  if (fstat(static_cast<int>(handle_), &st) != 0) {
    *err = MakeSysError(errno, "fstat", path_);
    return false;
  }
  *bytes = static_cast<uint64_t>(st.st_size);
  return true;
}

bool IoFile::Truncate(uint64_t bytes, SysError* err) {
  if (ftruncate(static_cast<int>(handle_), static_cast<off_t>(bytes)) != 0) {
    *err = MakeSysError(errno, "ftruncate", path_);
    return false;
  }
  return true;
}

bool IoFile::Close(SysError* err) {
  if (handle_ < 0) return true;
  int fd = static_cast<int>(handle_);
  handle_ = -1;
  if (close(fd) != 0 && errno != EINTR) {
    *err = MakeSysError(errno, "close", path_);
    return false;
  }
  return true;
}

}  // namespace plumb
