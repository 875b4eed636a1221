// Linux volume facts: statvfs for space, /proc/self/mountinfo for the mount, sysfs for the device.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "linux/block_device.h"
#include "plumb.h"
#include "posix/fd.h"

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
// btrfs gives each subvolume an anonymous st_dev that mountinfo never lists (its line names the
// file system's own device number), so with no match the deepest mount above the path is taken:
// the path resolved, that mount is the one it lives on.
std::optional<MountEntry> FindMount(const std::string& realPath, dev_t dev) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  std::optional<MountEntry> sameDevice;
  std::optional<MountEntry> deepest;
  const std::string wanted = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  const auto deeper = [](const std::optional<MountEntry>& best, const MountEntry& entry) {
    return !best || entry.mountPoint.size() > best->mountPoint.size();
  };
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mountPoint;
    fields >> id >> parent >> majmin >> root >> mountPoint;
    std::string token;
    while (fields >> token && token != "-") {
    }
    MountEntry entry;
    entry.mountPoint = Unescape(mountPoint);
    fields >> entry.fsType >> entry.source;
    entry.source = Unescape(entry.source);
    if (!IsUnder(realPath, entry.mountPoint)) continue;
    if (majmin == wanted && deeper(sameDevice, entry)) sameDevice = entry;
    if (deeper(deepest, entry)) deepest = entry;
  }
  return sameDevice ? sameDevice : deepest;
}

// XFS_IOC_FSGEOMETRY (v5 geometry, Linux 5.1+): its flags say whether reflink is on.
struct XfsGeometry {
  uint32_t blocksize, rtextsize, agblocks, agcount, logblocks, sectsize, inodesize, imaxpct;
  uint64_t datablocks, rtblocks, rtextents, logstart;
  unsigned char uuid[16];
  uint32_t sunit, swidth, version, flags, logsectsize, rtsectsize, dirblocksize, logsunit;
  uint32_t sick, checked;
  uint64_t reserved[17];
};
static_assert(sizeof(XfsGeometry) == 256, "struct xfs_fsop_geom is 256 bytes");
constexpr unsigned long kXfsIocFsGeometry = _IOR('X', 126, XfsGeometry);
constexpr uint32_t kXfsGeomFlagsReflink = 1u << 20;

// Asked of the path, or of its mount point when the path is a FIFO or device (which answers no
// file system ioctl, and is not opened).
std::optional<bool> XfsReflink(const std::string& path, const std::string& mountPoint) {
  SysError ignored;
  Fd fd(OpenChecked(path, O_RDONLY, PathKind::kFileOrFolder, &ignored));
  if (fd.fd < 0) fd.fd = OpenChecked(mountPoint, O_RDONLY, PathKind::kFolder, &ignored);
  if (fd.fd < 0) return std::nullopt;
  XfsGeometry geometry{};
  if (ioctl(fd.fd, kXfsIocFsGeometry, &geometry) != 0) return std::nullopt;
  return (geometry.flags & kXfsGeomFlagsReflink) != 0;
}

bool OneOf(const std::string& value, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (value == name) return true;
  }
  return false;
}

// What each file system can do, where that is a property of the file system type.
void FillFsFeatures(const std::string& path, const MountEntry& mount, VolumeFacts* out) {
  const std::string& fsType = mount.fsType;
  if (OneOf(fsType, {"btrfs", "bcachefs", "ocfs2"})) out->supportsClones = true;
  if (fsType == "xfs") out->supportsClones = XfsReflink(path, mount.mountPoint);
  if (OneOf(fsType, {"ext2", "ext3", "ext4", "tmpfs", "ramfs", "vfat", "exfat", "f2fs", "ntfs3",
                     "jfs", "reiserfs"})) {
    out->supportsClones = false;
  }
  if (OneOf(fsType, {"ext2", "ext3", "ext4", "xfs", "btrfs", "bcachefs", "tmpfs", "f2fs", "zfs",
                     "ntfs3", "jfs", "ocfs2"})) {
    out->supportsSparse = true;
  }
  if (OneOf(fsType, {"vfat", "exfat", "msdos", "hfsplus"})) out->supportsSparse = false;
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
    FillFsFeatures(resolved, *mount, out);
  }
  // The block device: the mount source when it is one (btrfs reports an anonymous st_dev).
  dev_t dev = st.st_dev;
  struct stat source;
  if (out->device && out->device->rfind("/dev/", 0) == 0 &&
      stat(out->device->c_str(), &source) == 0 && S_ISBLK(source.st_mode)) {
    dev = source.st_rdev;
  }
  BlockDeviceFacts block = DescribeBlockDevice(dev);
  if (!block.diskName.empty()) {
    out->rotational = block.rotational;
    out->bus = block.bus;
    out->medium = block.medium;
    out->internal = block.internal;
    out->directIoAlignment = block.logicalBlockSize;
  }
  return true;
}

}  // namespace plumb
