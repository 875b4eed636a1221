// Linux block device facts from sysfs: queue/rotational, logical block size, the transport from
// the device's place in the sysfs tree, and PCI "removable" for Thunderbolt/USB4-attached drives.
#include "linux/block_device.h"

#include <dirent.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>

namespace plumb {
namespace {

std::optional<std::string> ReadLine(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

std::string Resolve(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// The first entry of a sysfs "slaves" folder (device-mapper and md sit on top of real disks).
std::string FirstSlave(const std::string& dir) {
  DIR* d = opendir((dir + "/slaves").c_str());
  if (!d) return {};
  std::string name;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') {
      name = e->d_name;
      break;
    }
  }
  closedir(d);
  return name;
}

bool Contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

enum class Attachment { kUnknown, kFixed, kRemovable };

// Walks up the device's ancestors for the PCI "removable" attribute (external-facing ports).
Attachment PciAttachment(std::string devicePath) {
  while (devicePath.size() > 1 && devicePath != "/sys/devices") {
    if (auto value = ReadLine(devicePath + "/removable")) {
      if (*value == "removable") return Attachment::kRemovable;
      if (*value == "fixed") return Attachment::kFixed;
    }
    devicePath = devicePath.substr(0, devicePath.rfind('/'));
  }
  return Attachment::kUnknown;
}

}  // namespace

BlockDeviceFacts DescribeBlockDevice(dev_t dev) {
  BlockDeviceFacts facts;
  std::string dir =
      Resolve("/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev)));
  if (dir.empty()) return facts;
  for (int depth = 0; depth < 4; ++depth) {
    if (Exists(dir + "/partition")) dir = dir.substr(0, dir.rfind('/'));
    std::string slave = FirstSlave(dir);
    if (slave.empty()) break;
    dir = Resolve("/sys/class/block/" + slave);
    if (dir.empty()) return facts;
  }
  facts.diskName = dir.substr(dir.rfind('/') + 1);
  facts.diskSysfs = "/sys/block/" + facts.diskName;
  if (auto size = ReadLine(dir + "/queue/logical_block_size")) {
    long value = std::strtol(size->c_str(), nullptr, 10);
    if (value > 0) facts.logicalBlockSize = static_cast<uint32_t>(value);
  }
  if (auto rotational = ReadLine(dir + "/queue/rotational")) facts.rotational = *rotational == "1";

  const std::string device = Resolve(dir + "/device");
  const Attachment pci = device.empty() ? Attachment::kUnknown : PciAttachment(device);
  if (facts.diskName.rfind("loop", 0) == 0 || facts.diskName.rfind("zram", 0) == 0 ||
      facts.diskName.rfind("ram", 0) == 0 || facts.diskName.rfind("nbd", 0) == 0) {
    facts.rotational.reset();  // virtual: the flag is a kernel default, not a fact about a drive
    return facts;
  }
  if (Contains(dir, "/usb")) {
    facts.bus = "usb";
    facts.internal = false;
  } else if (pci == Attachment::kRemovable) {
    facts.bus = "thunderbolt";  // PCIe tunnelled through an external-facing port
    facts.internal = false;
  } else if (Contains(dir, "/nvme/") || facts.diskName.rfind("nvme", 0) == 0) {
    facts.bus = "nvme";
  } else if (Contains(dir, "/ata")) {
    facts.bus = "sata";
  } else if (Contains(dir, "/virtio")) {
    facts.bus = "virtio";
  } else if (Contains(dir, "/mmc")) {
    facts.bus = "sd";
  } else if (Contains(dir, "/host") && Contains(dir, "/target")) {
    facts.bus = "scsi";
  }
  if (!facts.internal && pci != Attachment::kUnknown) facts.internal = pci == Attachment::kFixed;
  if (auto removable = ReadLine(dir + "/removable"); removable && *removable == "1")
    facts.internal = false;
  // A virtual disk's rotational flag is whatever the hypervisor left; it says nothing about media.
  if (facts.rotational && facts.bus && *facts.bus != "virtio")
    facts.medium = *facts.rotational ? "hdd" : "ssd";
  return facts;
}

}  // namespace plumb
