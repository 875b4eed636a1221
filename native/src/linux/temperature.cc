// Linux drive temperature: the drive's hwmon sensor (NVMe, and SATA with drivetemp) needs no
// privileges; otherwise smartctl when installed.
#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>

#include "io.h"
#include "linux/block_device.h"
#include "posix/smartctl.h"

namespace plumb {
namespace {

// temp1_input of the first hwmon under `dir` (millidegrees).
std::optional<double> HwmonTemperature(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return std::nullopt;
  std::optional<double> celsius;
  while (dirent* e = readdir(d)) {
    if (std::string(e->d_name).rfind("hwmon", 0) != 0) continue;
    std::ifstream in(dir + "/" + e->d_name + "/temp1_input");
    long milli = 0;
    if (in >> milli) {
      celsius = static_cast<double>(milli) / 1000.0;
      break;
    }
  }
  closedir(d);
  return celsius;
}

}  // namespace

bool ReadDriveTemperature(const std::string& path, double* celsius, SysError* err) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) {
    *err = MakeSysError(errno, "realpath", path);
    return false;
  }
  struct stat st;
  if (stat(resolved, &st) != 0) {
    *err = MakeSysError(errno, "stat", path);
    return false;
  }
  BlockDeviceFacts disk = DescribeBlockDevice(st.st_dev);
  if (disk.diskName.empty()) return false;
  // NVMe: /sys/block/nvme0n1/device is the controller, which owns hwmonN; SATA:
  // device/hwmon/hwmonN.
  for (const std::string& dir : {disk.diskSysfs + "/device", disk.diskSysfs + "/device/hwmon"}) {
    if (auto value = HwmonTemperature(dir)) {
      *celsius = *value;
      return true;
    }
  }
  if (auto value = SmartctlTemperature("/dev/" + disk.diskName)) {
    *celsius = *value;
    return true;
  }
  return false;
}

}  // namespace plumb
