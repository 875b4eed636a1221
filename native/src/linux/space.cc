// Linux space primitives: FIEMAP (shared extents, physical offsets), FIDEDUPERANGE (kernel-verified
// sharing), FICLONE, metadata copy (owner, mode, xattrs incl. ACLs, flags, times), hole punching,
// and the guard and exchange of a replacement or a punch (write leases, renameat2 RENAME_EXCHANGE).
#include "space.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "posix/fd.h"

namespace plumb {
namespace {

// Extent flags that mean "this extent has no reliable physical address".
constexpr uint32_t kUnknownPlacement = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
                                       FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL |
                                       FIEMAP_EXTENT_NOT_ALIGNED;

// FIDEDUPERANGE works on at most this much per call on some file systems (btrfs: 16 MiB).
constexpr uint64_t kDedupeChunkBytes = 16ull << 20;

// File flags a clone must carry over (chattr +d, +A, +S).
constexpr int kCopiedFlags = FS_NODUMP_FL | FS_NOATIME_FL | FS_SYNC_FL;

std::vector<std::string> SplitNames(const std::vector<char>& buffer, ssize_t length) {
  std::vector<std::string> names;
  for (ssize_t i = 0; i < length;) {
    std::string name(&buffer[static_cast<size_t>(i)]);
    i += static_cast<ssize_t>(name.size()) + 1;
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

bool ListXattrs(int fd, const std::string& path, std::vector<std::string>* names, SysError* err) {
  for (;;) {
    ssize_t size = flistxattr(fd, nullptr, 0);
    if (size < 0) {
      if (errno == ENOTSUP) return true;  // the file system has no extended attributes
      *err = MakeSysError(errno, "flistxattr", path);
      return false;
    }
    std::vector<char> buffer(static_cast<size_t>(size) + 1, '\0');
    ssize_t got = flistxattr(fd, buffer.data(), static_cast<size_t>(size));
    if (got < 0 && errno == ERANGE) continue;  // grew meanwhile
    if (got < 0) {
      *err = MakeSysError(errno, "flistxattr", path);
      return false;
    }
    *names = SplitNames(buffer, got);
    return true;
  }
}

bool CopyXattrs(int from, const std::string& fromPath, int to, const std::string& toPath,
                SysError* err) {
  std::vector<std::string> wanted, present;
  if (!ListXattrs(from, fromPath, &wanted, err) || !ListXattrs(to, toPath, &present, err)) {
    return false;
  }
  const std::set<std::string> keep(wanted.begin(), wanted.end());
  for (const auto& name : present) {
    // A new file may inherit a default ACL or a security label the original does not have.
    if (keep.count(name) == 0 && fremovexattr(to, name.c_str()) != 0 && errno != ENODATA) {
      *err = MakeSysError(errno, "fremovexattr", toPath);
      return false;
    }
  }
  std::vector<char> value;
  for (const auto& name : wanted) {
    ssize_t size = fgetxattr(from, name.c_str(), nullptr, 0);
    if (size < 0) {
      *err = MakeSysError(errno, "fgetxattr", fromPath);
      return false;
    }
    value.resize(static_cast<size_t>(size) + 1);
    size = fgetxattr(from, name.c_str(), value.data(), value.size());
    if (size < 0) {
      *err = MakeSysError(errno, "fgetxattr", fromPath);
      return false;
    }
    if (fsetxattr(to, name.c_str(), value.data(), static_cast<size_t>(size), 0) != 0) {
      *err = MakeSysError(errno, "fsetxattr", toPath);
      err->message += " (extended attribute " + name + ")";
      return false;
    }
  }
  return true;
}

bool CopyFlags(int from, const std::string& fromPath, int to, const std::string& toPath,
               SysError* err) {
  int fromFlags = 0, toFlags = 0;
  if (ioctl(from, FS_IOC_GETFLAGS, &fromFlags) != 0) {
    if (errno == ENOTTY || errno == ENOTSUP || errno == EINVAL) return true;  // no flags here
    *err = MakeSysError(errno, "ioctl(FS_IOC_GETFLAGS)", fromPath);
    return false;
  }
  if (fromFlags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) {
    // An immutable or append-only file cannot be replaced; say so instead of dropping the flag.
    *err = MakeSysError(EPERM, "ioctl(FS_IOC_GETFLAGS)", fromPath);
    err->message = "the file is immutable or append-only (chattr +i / +a)";
    return false;
  }
  if (ioctl(to, FS_IOC_GETFLAGS, &toFlags) != 0) {
    *err = MakeSysError(errno, "ioctl(FS_IOC_GETFLAGS)", toPath);
    return false;
  }
  int wanted = (toFlags & ~kCopiedFlags) | (fromFlags & kCopiedFlags);
  if (wanted != toFlags && ioctl(to, FS_IOC_SETFLAGS, &wanted) != 0) {
    *err = MakeSysError(errno, "ioctl(FS_IOC_SETFLAGS)", toPath);
    return false;
  }
  return true;
}

// A broken lease signals its holder with SIGIO, whose default action ends the process. The
// guard reads the lease's state instead, so a handler that does nothing is installed once, only
// where nobody chose another (a handler, unlike SIG_IGN, is not inherited by programs we run).
void TolerateLeaseSignals() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current;
    if (sigaction(SIGIO, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) return;
    struct sigaction quiet;
    std::memset(&quiet, 0, sizeof quiet);
    quiet.sa_handler = [](int) {};
    quiet.sa_flags = SA_RESTART;
    sigemptyset(&quiet.sa_mask);
    sigaction(SIGIO, &quiet, nullptr);
  });
}

}  // namespace

bool GuardExclusive(int fd, const std::string& path, bool* busy, SysError* err) {
  TolerateLeaseSignals();
  if (fcntl(fd, F_SETLEASE, F_WRLCK) != 0) {
    if (errno == EAGAIN || errno == EBUSY) {
      *busy = true;  // another open file description exists: a program has it open
      return true;
    }
    *err = MakeSysError(errno, "fcntl(F_SETLEASE)", path);
    err->message = "cannot take a write lease, which proves no other program has the file open (" +
                   err->message + ")";
    return false;
  }
  fcntl(fd, F_SETOWN, 0);  // no signal at a break: StillExclusive reads the state
  *busy = false;
  return true;
}

bool StillExclusive(int fd, const std::string&) {
  // A break (an open for reading or writing, a truncate) turns the pending type to F_RDLCK or
  // F_UNLCK at once; the opener waits until the lease is released.
  return fcntl(fd, F_GETLEASE) == F_WRLCK;
}

void ReleaseExclusive(int fd) { fcntl(fd, F_SETLEASE, F_UNLCK); }

bool ExchangePaths(const std::string& a, const std::string& b, SysError* err) {
  if (renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) != 0) {
    *err = MakeSysError(errno, "renameat2(RENAME_EXCHANGE)", b);
    return false;
  }
  return true;
}

bool QueryFileSharing(const std::string& path, FileSharing* out, SysError* err) {
  Fd file(OpenQuietly(path, err));
  if (file.fd < 0) return false;
  struct stat st;
  if (fstat(file.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", path);
    return false;
  }
  out->logicalBytes = static_cast<uint64_t>(st.st_size);
  out->allocatedBytes = static_cast<uint64_t>(st.st_blocks) * 512;

  constexpr uint32_t kBatch = 256;
  const size_t bytes = sizeof(fiemap) + kBatch * sizeof(fiemap_extent);
  std::unique_ptr<uint64_t[]> storage(new uint64_t[(bytes + 7) / 8]());
  auto* map = reinterpret_cast<fiemap*>(storage.get());
  std::vector<FileExtent> extents;
  uint64_t sharedBytes = 0;
  bool compressed = false, placementKnown = true, last = false;
  uint64_t start = 0;
  while (!last) {
    std::fill(reinterpret_cast<char*>(map), reinterpret_cast<char*>(map) + bytes, 0);
    map->fm_start = start;
    map->fm_length = FIEMAP_MAX_OFFSET - start;
    map->fm_flags = FIEMAP_FLAG_SYNC;  // flush delayed allocation so every extent has an address
    map->fm_extent_count = kBatch;
    if (ioctl(file.fd, FS_IOC_FIEMAP, map) != 0) {
      if (errno == EOPNOTSUPP || errno == ENOTTY) return true;  // no extent map: sharing unknown
      *err = MakeSysError(errno, "ioctl(FS_IOC_FIEMAP)", path);
      return false;
    }
    if (map->fm_mapped_extents == 0) break;
    for (uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
      const fiemap_extent& e = map->fm_extents[i];
      if (e.fe_flags & kUnknownPlacement) placementKnown = false;
      if (e.fe_flags & FIEMAP_EXTENT_ENCODED) compressed = true;
      if (e.fe_flags & FIEMAP_EXTENT_SHARED) sharedBytes += e.fe_length;
      extents.push_back(FileExtent{e.fe_logical, e.fe_physical, e.fe_length,
                                   (e.fe_flags & FIEMAP_EXTENT_SHARED) != 0});
      if (e.fe_flags & FIEMAP_EXTENT_LAST) last = true;
      start = e.fe_logical + e.fe_length;
    }
  }
  out->compressed = compressed;
  if (placementKnown) {
    out->extents = std::move(extents);
    out->sharedBytes = sharedBytes;
  }
  return true;
}

bool DedupeWholeFile(const std::string& source, const std::string& target, DedupeOutcome* out,
                     SysError* err) {
  Fd src(OpenQuietly(source, err));
  if (src.fd < 0) return false;
  // Read-only is enough for the owner or root, and leaves the target's times untouched.
  Fd dst(OpenQuietly(target, err));
  if (dst.fd < 0) return false;
  struct stat srcStat, dstStat;
  if (fstat(src.fd, &srcStat) != 0 || fstat(dst.fd, &dstStat) != 0) {
    *err = MakeSysError(errno, "fstat", target);
    return false;
  }
  if (srcStat.st_size != dstStat.st_size) {
    out->differs = true;
    return true;
  }
  const uint64_t size = static_cast<uint64_t>(srcStat.st_size);
  const size_t bytes = sizeof(file_dedupe_range) + sizeof(file_dedupe_range_info);
  std::unique_ptr<uint64_t[]> storage(new uint64_t[(bytes + 7) / 8]());
  auto* range = reinterpret_cast<file_dedupe_range*>(storage.get());
  uint64_t offset = 0;
  while (offset < size) {
    const uint64_t length = std::min(kDedupeChunkBytes, size - offset);
    std::fill(reinterpret_cast<char*>(range), reinterpret_cast<char*>(range) + bytes, 0);
    range->src_offset = offset;
    range->src_length = length;
    range->dest_count = 1;
    range->info[0].dest_fd = dst.fd;
    range->info[0].dest_offset = offset;
    if (ioctl(src.fd, FIDEDUPERANGE, range) != 0) {
      *err = MakeSysError(errno, "ioctl(FIDEDUPERANGE)", target);
      return false;
    }
    const file_dedupe_range_info& info = range->info[0];
    if (info.status == FILE_DEDUPE_RANGE_DIFFERS) {
      out->differs = true;
      return true;
    }
    if (info.status < 0) {
      *err = MakeSysError(-info.status, "ioctl(FIDEDUPERANGE)", target);
      return false;
    }
    if (info.bytes_deduped == 0) {
      *err = MakeSysError(EINVAL, "ioctl(FIDEDUPERANGE)", target);
      err->message = "the file system shared no bytes of this range";
      return false;
    }
    offset += info.bytes_deduped;
    out->bytesDeduped = offset;
  }
  return true;
}

bool QuerySharingSupport(const std::string& file, std::optional<bool>* out, SysError* err) {
  Fd fd(OpenQuietly(file, err));
  if (fd.fd < 0) return false;
  // A zero-length dedupe of the file with itself changes nothing; file systems without remapping
  // refuse it with EOPNOTSUPP.
  const size_t bytes = sizeof(file_dedupe_range) + sizeof(file_dedupe_range_info);
  std::unique_ptr<uint64_t[]> storage(new uint64_t[(bytes + 7) / 8]());
  auto* range = reinterpret_cast<file_dedupe_range*>(storage.get());
  range->dest_count = 1;
  range->info[0].dest_fd = fd.fd;
  if (ioctl(fd.fd, FIDEDUPERANGE, range) == 0) {
    *out = true;
  } else if (errno == EOPNOTSUPP || errno == ENOTTY || errno == EINVAL || errno == EXDEV) {
    *out = false;
  } else {
    *err = MakeSysError(errno, "ioctl(FIDEDUPERANGE)", file);
    return false;
  }
  return true;
}

bool CloneFile(const std::string& source, const std::string& target, SysError* err) {
  Fd src(OpenQuietly(source, err));
  if (src.fd < 0) return false;
  Fd dst(open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (dst.fd < 0) {
    *err = MakeSysError(errno, "open", target);
    return false;
  }
  if (ioctl(dst.fd, FICLONE, src.fd) != 0) {
    *err = MakeSysError(errno, "ioctl(FICLONE)", target);
    unlink(target.c_str());
    return false;
  }
  if (fsync(dst.fd) != 0) {
    *err = MakeSysError(errno, "fsync", target);
    unlink(target.c_str());
    return false;
  }
  return true;
}

bool CopyMetadata(const std::string& from, const std::string& to, SysError* err) {
  Fd src(OpenQuietly(from, err));
  if (src.fd < 0) return false;
  Fd dst(OpenChecked(to, O_RDONLY | O_NOFOLLOW, PathKind::kFile, err));
  if (dst.fd < 0) return false;
  struct stat st;
  if (fstat(src.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", from);
    return false;
  }
  if (fchown(dst.fd, st.st_uid, st.st_gid) != 0) {
    *err = MakeSysError(errno, "fchown", to);
    return false;
  }
  // After chown, which clears set-user-ID bits; before the ACL, which sets the group bits.
  if (fchmod(dst.fd, st.st_mode & 07777) != 0) {
    *err = MakeSysError(errno, "fchmod", to);
    return false;
  }
  if (!CopyXattrs(src.fd, from, dst.fd, to, err)) return false;
  if (!CopyFlags(src.fd, from, dst.fd, to, err)) return false;
  const timespec times[2] = {st.st_atim, st.st_mtim};
  if (futimens(dst.fd, times) != 0) {
    *err = MakeSysError(errno, "futimens", to);
    return false;
  }
  if (fsync(dst.fd) != 0) {
    *err = MakeSysError(errno, "fsync", to);
    return false;
  }
  return true;
}

bool FlushVolume(const std::string& path, SysError* err) {
  Fd fd(OpenChecked(path, O_RDONLY, PathKind::kFileOrFolder, err));
  if (fd.fd < 0) return false;
  if (syncfs(fd.fd) != 0) {
    *err = MakeSysError(errno, "syncfs", path);
    return false;
  }
  return true;
}

bool PunchRange(int fd, const std::string& path, uint64_t offset, uint64_t length, SysError* err) {
  if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                static_cast<off_t>(length)) != 0) {
    *err = MakeSysError(errno, "fallocate", path);
    return false;
  }
  return true;
}

// Why a punch under a write lease never loses a write. The kernel grants the lease only while no
// other open file description exists, so at the start nobody can write. Any later open (or
// truncate) breaks the lease and then waits in the kernel until the holder lets go or
// /proc/sys/fs/lease-break-time seconds pass (45 by default): only then can it write. Each step
// (read a chunk, punch its zero blocks) starts with the lease unbroken and punches only within
// half that time of its start, so an opener that broke the lease during the step is still
// waiting when the punch lands: no write can fall between the read that saw zeros and the punch.
// The loop then sees the break and stops, and the times are put back before the lease is let go.
double GuardedStepSeconds() {
  double seconds = 45;
  if (FILE* file = std::fopen("/proc/sys/fs/lease-break-time", "r")) {
    if (std::fscanf(file, "%lf", &seconds) != 1) seconds = 45;
    std::fclose(file);
  }
  return seconds / 2;
}

}  // namespace plumb
