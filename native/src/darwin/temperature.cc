// macOS drive temperature: smartctl (smartmontools) when installed; the OS itself offers none
// without privileges.
#include <sys/mount.h>
#include <sys/param.h>

#include <cctype>
#include <cerrno>

#include "io.h"
#include "posix/smartctl.h"

namespace plumb {

bool ReadDriveTemperature(const std::string& path, double* celsius, SysError* err) {
  struct statfs fs;
  if (statfs(path.c_str(), &fs) != 0) {
    *err = MakeSysError(errno, "statfs", path);
    return false;
  }
  // /dev/disk3s1 → /dev/disk3: smartctl wants the whole disk.
  std::string device = fs.f_mntfromname;
  if (device.rfind("/dev/disk", 0) != 0) return false;
  size_t end = 9;
  while (end < device.size() && std::isdigit(static_cast<unsigned char>(device[end]))) ++end;
  device.resize(end);
  if (auto value = SmartctlTemperature(device)) {
    *celsius = *value;
    return true;
  }
  return false;
}

}  // namespace plumb
