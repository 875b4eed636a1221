// macOS volume facts: statfs names the file system, mount point and device.
#include <sys/mount.h>
#include <sys/param.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "plumb.h"

namespace plumb {

bool QueryVolume(const std::string& path, VolumeFacts* out, SysError* err) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) {
    *err = MakeSysError(errno, "realpath", path);
    return false;
  }
  struct statfs fs;
  if (statfs(resolved, &fs) != 0) {
    *err = MakeSysError(errno, "statfs", path);
    return false;
  }
  out->path = resolved;
  out->totalBytes = static_cast<uint64_t>(fs.f_blocks) * fs.f_bsize;
  out->freeBytes = static_cast<uint64_t>(fs.f_bfree) * fs.f_bsize;
  out->availableBytes = static_cast<uint64_t>(fs.f_bavail) * fs.f_bsize;
  out->blockSize = fs.f_iosize ? static_cast<uint32_t>(fs.f_iosize) : fs.f_bsize;
  out->fsType = std::string(fs.f_fstypename);
  out->mountPoint = std::string(fs.f_mntonname);
  out->device = std::string(fs.f_mntfromname);
  out->readOnly = (fs.f_flags & MNT_RDONLY) != 0;
  return true;
}

}  // namespace plumb
