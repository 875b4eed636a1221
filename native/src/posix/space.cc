// POSIX space primitives shared by Linux and macOS: data/hole maps (SEEK_DATA / SEEK_HOLE), exact
// times (utimensat), sparse file creation (ftruncate), the guarded replacement of a copy by its
// clone and the guarded punching of zero blocks (the per-OS guard, exchange and punch are in
// linux/ and darwin/).
#include "space.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/punch_zeros.h"
#include "posix/fd.h"

namespace plumb {
namespace {

int64_t Nanoseconds(const timespec& t) {
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

#ifdef __APPLE__
const timespec& AccessTime(const struct stat& st) { return st.st_atimespec; }
const timespec& ModifiedTime(const struct stat& st) { return st.st_mtimespec; }
const timespec& ChangedTime(const struct stat& st) { return st.st_ctimespec; }
#else
const timespec& AccessTime(const struct stat& st) { return st.st_atim; }
const timespec& ModifiedTime(const struct stat& st) { return st.st_mtim; }
const timespec& ChangedTime(const struct stat& st) { return st.st_ctim; }
#endif

// Reads up to `bytes` at `offset`, retrying short reads; returns the count or -1.
ssize_t ReadAt(int fd, char* buffer, size_t bytes, off_t offset) {
  size_t done = 0;
  while (done < bytes) {
    ssize_t got = pread(fd, buffer + done, bytes - done, offset + static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return static_cast<ssize_t>(done);
}

// Whether the two open files hold exactly the same bytes.
bool SameBytes(int a, int b, bool* same, SysError* err) {
  constexpr size_t kBlock = 1 << 20;
  std::vector<char> x(kBlock), y(kBlock);
  for (off_t offset = 0;; offset += static_cast<off_t>(kBlock)) {
    const ssize_t gotX = ReadAt(a, x.data(), kBlock, offset);
    const ssize_t gotY = ReadAt(b, y.data(), kBlock, offset);
    if (gotX < 0 || gotY < 0) {
      *err = MakeSysError(errno, "pread", "");
      return false;
    }
    if (gotX != gotY || std::memcmp(x.data(), y.data(), static_cast<size_t>(gotX)) != 0) {
      *same = false;
      return true;
    }
    if (static_cast<size_t>(gotX) < kBlock) {
      *same = true;
      return true;
    }
  }
}

// Releases a guard taken by GuardExclusive on every path out.
struct Guard {
  int fd = -1;
  ~Guard() {
    if (fd >= 0) ReleaseExclusive(fd);
  }
};

// The user's file under GuardExclusive, for the OS-blind punch loop.
class ExclusiveFile : public GuardedFile {
 public:
  ExclusiveFile(int fd, const std::string& path) : fd_(fd), path_(path) {}
  bool GuardHeld() override { return StillExclusive(fd_, path_); }
  bool ReadAt(uint64_t offset, char* buffer, size_t bytes, size_t* got, SysError* err) override {
    const ssize_t n = ::plumb::ReadAt(fd_, buffer, bytes, static_cast<off_t>(offset));
    if (n < 0) {
      *err = MakeSysError(errno, "pread", path_);
      return false;
    }
    *got = static_cast<size_t>(n);
    return true;
  }
  bool Punch(uint64_t offset, uint64_t length, SysError* err) override {
    return PunchRange(fd_, path_, offset, length, err);
  }

 private:
  int fd_;
  const std::string& path_;
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
  Fd file(OpenChecked(path, O_RDONLY | O_NOFOLLOW, PathKind::kFile, err));
  if (file.fd < 0) return false;
  struct stat st;
  if (fstat(file.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", path);
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

bool ReplaceWithClone(const std::string& clone, const std::string& target, const std::string&,
                      const FileFacts& expected, ReplaceResult* out, SysError* err) {
  Fd original(OpenQuietly(target, err));
  if (original.fd < 0) return false;
  Fd copy(OpenQuietly(clone, err));
  if (copy.fd < 0) return false;
  bool busy = false;
  Guard originalGuard, copyGuard;
  if (!GuardExclusive(original.fd, target, &busy, err)) return false;
  if (busy) {
    out->outcome = ReplaceOutcome::kInUse;
    return true;
  }
  originalGuard.fd = original.fd;
  // The clone is ours alone (a fresh hidden name); its guard tells whether a program opened it
  // at the target's name after the swap, which matters if the swap must be undone.
  if (!GuardExclusive(copy.fd, clone, &busy, err)) return false;
  if (busy) {
    out->outcome = ReplaceOutcome::kInUse;
    return true;
  }
  copyGuard.fd = copy.fd;
  // Under the guard no other program can open or truncate the original: check it one last time.
  struct stat st;
  if (fstat(original.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", target);
    return false;
  }
  if (static_cast<uint64_t>(st.st_ino) != expected.ino ||
      static_cast<uint64_t>(st.st_size) != expected.size ||
      Nanoseconds(ModifiedTime(st)) != expected.mtimeNs ||
      Nanoseconds(ChangedTime(st)) != expected.ctimeNs) {
    out->outcome = ReplaceOutcome::kChanged;
    return true;
  }
  if (!ExchangePaths(clone, target, err)) return false;
  // Now `target` names the clone and `clone` the original. Verify the original once more: a
  // write in the last instant before the swap, or an open the guard saw, undoes the swap.
  bool same = false;
  if (StillExclusive(original.fd, clone)) {
    if (fstat(original.fd, &st) != 0) *err = MakeSysError(errno, "fstat", clone);
    if (!err->ok() || !SameBytes(original.fd, copy.fd, &same, err)) {
      SysError ignored;
      ExchangePaths(clone, target, &ignored);
      return false;
    }
  }
  const bool unchanged = same && static_cast<uint64_t>(st.st_size) == expected.size &&
                         Nanoseconds(ModifiedTime(st)) == expected.mtimeNs;
  const bool opened = !StillExclusive(original.fd, clone);
  struct stat named;
  if (unchanged && !opened && lstat(clone.c_str(), &named) == 0 && named.st_ino == st.st_ino &&
      named.st_dev == st.st_dev) {
    if (unlink(clone.c_str()) != 0) {
      *err = MakeSysError(errno, "unlink", clone);
      SysError ignored;
      ExchangePaths(clone, target, &ignored);
      return false;
    }
    out->outcome = ReplaceOutcome::kReplaced;
    return true;
  }
  // Undo: the original goes back to its name.
  const bool cloneOpened = !StillExclusive(copy.fd, target);
  if (!ExchangePaths(clone, target, err)) return false;
  out->outcome = opened ? ReplaceOutcome::kOpened : ReplaceOutcome::kChanged;
  if (cloneOpened) {
    // A program opened the clone while it had the target's name; what it writes must stay.
    out->keptPath = target + ".plumb-kept";
    for (int i = 1; link(clone.c_str(), out->keptPath.c_str()) != 0; ++i) {
      if (errno != EEXIST || i > 99) {
        *err = MakeSysError(errno, "link", out->keptPath);
        return false;
      }
      out->keptPath = target + ".plumb-kept-" + std::to_string(i);
    }
    unlink(clone.c_str());
  }
  return true;
}

bool PunchZeroBlocks(const std::string& path, const std::vector<ByteRange>& ranges,
                     uint64_t blockBytes, PunchResult* out, SysError* err) {
  // Without touching its access time (the punch puts atime and mtime back as they were), and
  // never a FIFO, socket or device (OpenChecked checks the type on the descriptor).
  Fd file(OpenQuietly(path, err, O_RDWR | O_NOFOLLOW));
  if (file.fd < 0) return false;
  struct stat st;
  if (fstat(file.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", path);
    return false;
  }
  bool busy = false;
  if (!GuardExclusive(file.fd, path, &busy, err)) return false;
  if (busy) {
    out->outcome = PunchOutcome::kInUse;
    return true;
  }
  Guard guard;
  guard.fd = file.fd;
  ExclusiveFile held(file.fd, path);
  const bool ok = PunchZeroChunks(held, ranges, blockBytes, GuardedStepSeconds(), out, err);
  if (out->punchedBytes > 0) {
    // Still under the guard: anyone waiting to open the file has not written yet, so the times
    // put back are those of this very content (a punch moves the modification time).
    const timespec times[2] = {AccessTime(st), ModifiedTime(st)};
    if (futimens(file.fd, times) != 0 && ok) {
      *err = MakeSysError(errno, "futimens", path);
      return false;
    }
  }
  return ok;
}

}  // namespace plumb
