// macOS space primitives: fgetattrlist clone id / private size / clone refcount, fclonefileat,
// fcopyfile(COPYFILE_METADATA) plus birth time, F_PUNCHHOLE, each on a descriptor opened by
// OpenChecked (never a FIFO or device). APFS has no in-place verified
// dedupe, so DedupeWholeFile says ENOTSUP and the core clones to a temporary file instead. The
// replacement's guard asks the OS which processes have the file open (proc_listpidspath) and
// swaps with renamex_np(RENAME_SWAP).
#include "space.h"

#include <copyfile.h>
#include <fcntl.h>
#include <libproc.h>
#include <stdio.h>
#include <sys/attr.h>
#include <sys/clonefile.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <vector>

#include "posix/fd.h"

namespace plumb {
namespace {

// Reads ATTR_CMNEXT_* clone facts. The reply is packed in bit order after the returned-attributes
// set: [u32 length][attribute_set_t][off_t privatesize][u64 cloneid][u32 clone refcount].
void ReadCloneFacts(int fd, FileSharing* out) {
  attrlist request;
  std::memset(&request, 0, sizeof request);
  request.bitmapcount = ATTR_BIT_MAP_COUNT;
  request.commonattr = ATTR_CMN_RETURNED_ATTRS;
  request.forkattr = ATTR_CMNEXT_PRIVATESIZE | ATTR_CMNEXT_CLONEID;
#ifdef ATTR_CMNEXT_CLONE_REFCNT
  request.forkattr |= ATTR_CMNEXT_CLONE_REFCNT;
#endif
  unsigned char reply[128];
  std::memset(reply, 0, sizeof reply);
  if (fgetattrlist(fd, &request, reply, sizeof reply, FSOPT_ATTR_CMN_EXTENDED) != 0) {
    return;  // older macOS or a file system without these: sharing stays unknown
  }
  const unsigned char* p = reply + sizeof(uint32_t);
  attribute_set_t returned;
  std::memcpy(&returned, p, sizeof returned);
  p += sizeof returned;
  if (returned.forkattr & ATTR_CMNEXT_PRIVATESIZE) {
    off_t privateSize = 0;
    std::memcpy(&privateSize, p, sizeof privateSize);
    p += sizeof privateSize;
    out->privateBytes = static_cast<uint64_t>(privateSize);
  }
  if (returned.forkattr & ATTR_CMNEXT_CLONEID) {
    uint64_t cloneId = 0;
    std::memcpy(&cloneId, p, sizeof cloneId);
    p += sizeof cloneId;
    if (cloneId != 0) out->cloneId = std::to_string(cloneId);
  }
#ifdef ATTR_CMNEXT_CLONE_REFCNT
  if (returned.forkattr & ATTR_CMNEXT_CLONE_REFCNT) {
    uint32_t refcount = 0;
    std::memcpy(&refcount, p, sizeof refcount);
    out->cloneRefcount = refcount;
  }
#endif
}

// Whether a process other than this one has `path` open. Only processes this user may inspect
// are seen (all of them as root); a write made meanwhile is still caught by the check after
// the swap, which compares every byte.
bool OpenElsewhere(const std::string& path, bool* open, SysError* err) {
  std::vector<int> pids(256);
  for (;;) {
    const int bytes =
        proc_listpidspath(PROC_ALL_PIDS, 0, path.c_str(), PROC_LISTPIDSPATH_EXCLUDE_EVTONLY,
                          pids.data(), static_cast<int>(pids.size() * sizeof(int)));
    if (bytes < 0) {
      *err = MakeSysError(errno, "proc_listpidspath", path);
      return false;
    }
    const size_t count = static_cast<size_t>(bytes) / sizeof(int);
    if (count >= pids.size()) {  // the list may have been cut short: ask with more room
      pids.resize(pids.size() * 4);
      continue;
    }
    *open = false;
    for (size_t i = 0; i < count; ++i)
      if (pids[i] != 0 && pids[i] != getpid()) *open = true;
    return true;
  }
}

}  // namespace

bool GuardExclusive(int, const std::string& path, bool* busy, SysError* err) {
  return OpenElsewhere(path, busy, err);
}

bool StillExclusive(int, const std::string& path) {
  bool open = true;
  SysError ignored;
  return OpenElsewhere(path, &open, &ignored) && !open;
}

void ReleaseExclusive(int) {}

bool ExchangePaths(const std::string& a, const std::string& b, SysError* err) {
  if (renamex_np(a.c_str(), b.c_str(), RENAME_SWAP) != 0) {
    *err = MakeSysError(errno, "renamex_np(RENAME_SWAP)", b);
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
  out->compressed = (st.st_flags & UF_COMPRESSED) != 0;
  ReadCloneFacts(file.fd, out);
  if (out->privateBytes && *out->privateBytes <= out->allocatedBytes) {
    out->sharedBytes = out->allocatedBytes - *out->privateBytes;
  }
  return true;
}

bool DedupeWholeFile(const std::string&, const std::string& target, DedupeOutcome*, SysError* err) {
  *err = MakeSysError(ENOTSUP, "dedupeFile", target);
  err->message = "macOS has no kernel-verified in-place dedupe; clone to a temporary file instead";
  return false;
}

bool QuerySharingSupport(const std::string& file, std::optional<bool>* out, SysError* err) {
  Fd fd(OpenQuietly(file, err));
  if (fd.fd < 0) return false;
  struct statfs fs;
  if (fstatfs(fd.fd, &fs) != 0) {
    *err = MakeSysError(errno, "fstatfs", file);
    return false;
  }
  *out = std::strcmp(fs.f_fstypename, "apfs") == 0;  // APFS is the macOS file system with clones
  return true;
}

bool CloneFile(const std::string& source, const std::string& target, SysError* err) {
  Fd src(OpenQuietly(source, err));
  if (src.fd < 0) return false;
  if (fclonefileat(src.fd, AT_FDCWD, target.c_str(), CLONE_NOOWNERCOPY) != 0) {
    *err = MakeSysError(errno, "clonefile", target);
    return false;
  }
  return true;
}

bool CopyMetadata(const std::string& from, const std::string& to, SysError* err) {
  // Both opened first: copyfile() by name would open them itself, and wait on a FIFO.
  Fd src(OpenQuietly(from, err));
  if (src.fd < 0) return false;
  Fd dst(OpenChecked(to, O_RDWR | O_NOFOLLOW, PathKind::kFile, err));
  if (dst.fd < 0) return false;
  struct stat st;
  if (fstat(src.fd, &st) != 0) {
    *err = MakeSysError(errno, "fstat", from);
    return false;
  }
  // Owner, mode, flags, ACL, extended attributes (Finder tags, quarantine), access/modify times.
  if (fcopyfile(src.fd, dst.fd, nullptr, COPYFILE_METADATA) != 0) {
    *err = MakeSysError(errno, "fcopyfile", to);
    return false;
  }
  // copyfile leaves the birth time of the new file; set the original's.
  attrlist request;
  std::memset(&request, 0, sizeof request);
  request.bitmapcount = ATTR_BIT_MAP_COUNT;
  request.commonattr = ATTR_CMN_CRTIME;
  timespec birth = st.st_birthtimespec;
  if (fsetattrlist(dst.fd, &request, &birth, sizeof birth, 0) != 0) {
    *err = MakeSysError(errno, "fsetattrlist", to);
    return false;
  }
  if (fsync(dst.fd) != 0) {
    *err = MakeSysError(errno, "fsync", to);
    return false;
  }
  return true;
}

bool FlushVolume(const std::string&, SysError*) {
  sync();  // macOS has no per-volume sync; this schedules every write and returns
  return true;
}

bool PunchRange(int fd, const std::string& path, uint64_t offset, uint64_t length, SysError* err) {
  fpunchhole_t hole;
  std::memset(&hole, 0, sizeof hole);
  hole.fp_offset = static_cast<off_t>(offset);
  hole.fp_length = static_cast<off_t>(length);
  if (fcntl(fd, F_PUNCHHOLE, &hole) != 0) {
    *err = MakeSysError(errno, "fcntl(F_PUNCHHOLE)", path);
    return false;
  }
  return true;
}

// macOS's guard only looks at who has the file open; it cannot make an opener wait, so no time
// bound makes a step safe. PunchZeroBlocks is given only fresh clones here (space.h), which no
// other program knows: the guarded ReplaceWithClone then makes the swap safe.
double GuardedStepSeconds() { return std::numeric_limits<double>::infinity(); }

}  // namespace plumb
