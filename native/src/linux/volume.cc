// Linux volume facts: statvfs for space, /proc/self/mountinfo for the mount, sysfs for the device.
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "plumb.h"

namespace plumb {
namespace {

struct MountEntry {
  std::string mountPoint;
  std::string fsType;
  std::string source;
};

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      out.push_back(static_cast<char>(std::strtol(s.substr(i + 1, 3).c_str(), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool IsUnder(const std::string& path, const std::string& mount) {
  if (mount == "/") return true;
  return path.compare(0, mount.size(), mount) == 0 &&
         (path.size() == mount.size() || path[mount.size()] == '/');
}

// The mount whose device matches st_dev; among bind mounts, the deepest one above the path.
std::optional<MountEntry> FindMount(const std::string& realPath, dev_t dev) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  std::optional<MountEntry> best;
  const std::string wanted = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mountPoint;
    fields >> id >> parent >> majmin >> root >> mountPoint;
    if (majmin != wanted) continue;
    std::string token;
    while (fields >> token && token != "-") {
    }
    MountEntry entry;
    entry.mountPoint = Unescape(mountPoint);
    fields >> entry.fsType >> entry.source;
    entry.source = Unescape(entry.source);
    if (!IsUnder(realPath, entry.mountPoint)) continue;
    if (!best || entry.mountPoint.size() > best->mountPoint.size()) best = entry;
  }
  return best;
}

}  // namespace

bool QueryVolume(const std::string& path, VolumeFacts* out, SysError* err) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) {
    *err = MakeSysError(errno, "realpath", path);
    return false;
  }
  struct statvfs vfs;
  if (statvfs(resolved, &vfs) != 0) {
    *err = MakeSysError(errno, "statvfs", path);
    return false;
  }
  struct stat st;
  if (stat(resolved, &st) != 0) {
    *err = MakeSysError(errno, "stat", path);
    return false;
  }
  out->path = resolved;
  const uint64_t fragment = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
  out->totalBytes = static_cast<uint64_t>(vfs.f_blocks) * fragment;
  out->freeBytes = static_cast<uint64_t>(vfs.f_bfree) * fragment;
  out->availableBytes = static_cast<uint64_t>(vfs.f_bavail) * fragment;
  out->blockSize = static_cast<uint32_t>(st.st_blksize ? st.st_blksize : vfs.f_bsize);
  out->readOnly = (vfs.f_flag & ST_RDONLY) != 0;
  if (auto mount = FindMount(resolved, st.st_dev)) {
    out->mountPoint = mount->mountPoint;
    out->fsType = mount->fsType;
    out->device = mount->source;
  }
  return true;
}

}  // namespace plumb
