// POSIX space primitives shared by Linux and macOS: data/hole maps (SEEK_DATA / SEEK_HOLE), exact
// times (utimensat) and sparse file creation (ftruncate).
#include "space.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace plumb {
namespace {

// Closes a descriptor on every path out of a function.
struct Fd {
  int fd = -1;
  explicit Fd(int value) : fd(value) {}
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

timespec ToTimespec(int64_t ns) {
  timespec ts;
  ts.tv_sec = static_cast<time_t>(ns / 1000000000);
  ts.tv_nsec = static_cast<long>(ns % 1000000000);
  if (ts.tv_nsec < 0) {
    ts.tv_nsec += 1000000000;
    ts.tv_sec -= 1;
  }
  return ts;
}

}  // namespace

bool SetTimes(const std::string& path, int64_t atimeNs, int64_t mtimeNs, SysError* err) {
  const timespec times[2] = {ToTimespec(atimeNs), ToTimespec(mtimeNs)};
  if (utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0) {
    *err = MakeSysError(errno, "utimensat", path);
    return false;
  }
  return true;
}

bool QueryDataRanges(const std::string& path, DataMap* out, SysError* err) {
  Fd file(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (file.fd < 0) {
    *err = MakeSysError(errno, "open", path);
    return false;
  }
  struct stat st;
  if (fstat(file.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", path);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = MakeSysError(EINVAL, "fstat", path);
    err->message = "not a regular file";
    return false;
  }
  out->logicalBytes = static_cast<uint64_t>(st.st_size);
  out->allocatedBytes = static_cast<uint64_t>(st.st_blocks) * 512;
  out->data.clear();
  const off_t size = st.st_size;
  off_t position = 0;
  while (position < size) {
    off_t dataStart = lseek(file.fd, position, SEEK_DATA);
    if (dataStart < 0) {
      if (errno == ENXIO) break;  // only a hole remains up to the end
      if (errno == EINVAL || errno == ENOTSUP) {
        // The file system cannot report holes: say the whole file is data.
        out->holesSupported = false;
        out->data.assign(1, ByteRange{0, static_cast<uint64_t>(size)});
        return true;
      }
      *err = MakeSysError(errno, "lseek", path);
      return false;
    }
    off_t holeStart = lseek(file.fd, dataStart, SEEK_HOLE);
    if (holeStart < 0) {
      *err = MakeSysError(errno, "lseek", path);
      return false;
    }
    if (holeStart > size) holeStart = size;
    if (holeStart <= dataStart) break;
    out->data.push_back(
        ByteRange{static_cast<uint64_t>(dataStart), static_cast<uint64_t>(holeStart - dataStart)});
    position = holeStart;
  }
  return true;
}

// 0600: a copy's temporary must be private from its creation; a user's new file gets its mode in
// JS.
bool CreateSparseFile(const std::string& path, uint64_t bytes, SysError* err) {
  Fd file(open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (file.fd < 0) {
    *err = MakeSysError(errno, "open", path);
    return false;
  }
  if (ftruncate(file.fd, static_cast<off_t>(bytes)) != 0) {
    *err = MakeSysError(errno, "ftruncate", path);
    unlink(path.c_str());
    return false;
  }
  return true;
}

}  // namespace plumb
