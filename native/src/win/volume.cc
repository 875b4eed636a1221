// Windows volume facts: the volume root, its file system and flags, and its free space.
#include <windows.h>
// After windows.h, which they need.
#include <setupapi.h>
#include <winioctl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "plumb.h"
#include "win/paths.h"
#include "win/volume_facts.h"

namespace plumb {
namespace {

// GUID_DEVINTERFACE_DISK (winioctl.h), defined here rather than taken from an import library.
const GUID kDiskInterface = {
    0x53f56307, 0xb6bf, 0x11d0, {0x94, 0xf2, 0x00, 0xa0, 0xc9, 0x1e, 0xfb, 0x8b}};

// The number of the disk a volume or disk handle is on (\\.\PhysicalDriveN), or -1 when it has
// none of its own (a volume across disks, an optical drive).
long DiskNumber(HANDLE device) {
  STORAGE_DEVICE_NUMBER number = {};
  DWORD returned = 0;
  if (!DeviceIoControl(device, IOCTL_STORAGE_GET_DEVICE_NUMBER, nullptr, 0, &number, sizeof number,
                       &returned, nullptr) ||
      number.DeviceType != FILE_DEVICE_DISK) {
    return -1;
  }
  return static_cast<long>(number.DeviceNumber);
}

// STORAGE_HOTPLUG_INFO of disk `disk` (IOCTL_STORAGE_GET_HOTPLUG_INFO, FILE_ANY_ACCESS).
void FillHotplug(long disk, StorageReport* report) {
  const std::wstring path = L"\\\\.\\PhysicalDrive" + std::to_wstring(disk);
  HANDLE device = CreateFileW(path.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                              OPEN_EXISTING, 0, nullptr);
  if (device == INVALID_HANDLE_VALUE) return;
  STORAGE_HOTPLUG_INFO hotplug = {};
  DWORD returned = 0;
  if (DeviceIoControl(device, IOCTL_STORAGE_GET_HOTPLUG_INFO, nullptr, 0, &hotplug, sizeof hotplug,
                      &returned, nullptr) &&
      returned >= offsetof(STORAGE_HOTPLUG_INFO, WriteCacheEnableOverride)) {
    report->hasHotplug = true;
    report->mediaRemovable = hotplug.MediaRemovable != FALSE;
    report->deviceHotplug = hotplug.DeviceHotplug != FALSE;
  }
  CloseHandle(device);
}

// The removal policy of disk `disk`: its device among the present disk interfaces, found by its
// number, then SPDRP_REMOVAL_POLICY (the policy in force, a user's override included).
RemovalPolicy DiskRemovalPolicy(long disk) {
  HDEVINFO set = SetupDiGetClassDevsW(&kDiskInterface, nullptr, nullptr,
                                      DIGCF_PRESENT | DIGCF_DEVICEINTERFACE);
  if (set == INVALID_HANDLE_VALUE) return kRemovalPolicyUnknown;
  RemovalPolicy policy = kRemovalPolicyUnknown;
  SP_DEVICE_INTERFACE_DATA face = {};
  face.cbSize = sizeof face;
  for (DWORD i = 0; SetupDiEnumDeviceInterfaces(set, nullptr, &kDiskInterface, i, &face); ++i) {
    DWORD size = 0;
    SetupDiGetDeviceInterfaceDetailW(set, &face, nullptr, 0, &size, nullptr);
    if (size < sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_W)) continue;
    std::vector<DWORD> buffer(size / sizeof(DWORD) + 1);
    auto* detail = reinterpret_cast<SP_DEVICE_INTERFACE_DETAIL_DATA_W*>(buffer.data());
    detail->cbSize = sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_W);
    SP_DEVINFO_DATA device = {};
    device.cbSize = sizeof device;
    if (!SetupDiGetDeviceInterfaceDetailW(set, &face, detail, size, nullptr, &device)) continue;
    HANDLE handle = CreateFileW(detail->DevicePath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                OPEN_EXISTING, 0, nullptr);
    if (handle == INVALID_HANDLE_VALUE) continue;
    const bool found = DiskNumber(handle) == disk;
    CloseHandle(handle);
    if (!found) continue;
    DWORD value = 0;
    if (SetupDiGetDeviceRegistryPropertyW(set, &device, SPDRP_REMOVAL_POLICY, nullptr,
                                          reinterpret_cast<BYTE*>(&value), sizeof value, nullptr) &&
        value >= kExpectNoRemoval && value <= kExpectSurpriseRemoval) {
      policy = static_cast<RemovalPolicy>(value);
    }
    break;
  }
  SetupDiDestroyDeviceInfoList(set);
  return policy;
}

// Bus, removability and seek penalty from IOCTL_STORAGE_QUERY_PROPERTY, hotplug information and
// removal policy from the volume's disk; none needs privileges.
void FillDeviceFacts(const std::wstring& root, VolumeFacts* out) {
  const std::wstring device = VolumeDevicePath(root);
  if (device.empty()) return;
  HANDLE volume = CreateFileW(device.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                              OPEN_EXISTING, 0, nullptr);
  if (volume == INVALID_HANDLE_VALUE) return;
  STORAGE_PROPERTY_QUERY query = {};
  query.PropertyId = StorageDeviceProperty;
  query.QueryType = PropertyStandardQuery;
  alignas(8) unsigned char buffer[1024] = {};
  DWORD returned = 0;
  StorageReport report;
  if (DeviceIoControl(volume, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, buffer,
                      sizeof buffer, &returned, nullptr) &&
      returned >= sizeof(STORAGE_DEVICE_DESCRIPTOR)) {
    const auto* descriptor = reinterpret_cast<const STORAGE_DEVICE_DESCRIPTOR*>(buffer);
    report.hasDescriptor = true;
    report.busType = descriptor->BusType;
    report.removableMedia = descriptor->RemovableMedia != FALSE;
  }
  query.PropertyId = StorageDeviceSeekPenaltyProperty;
  DEVICE_SEEK_PENALTY_DESCRIPTOR seek = {};
  if (DeviceIoControl(volume, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, &seek,
                      sizeof seek, &returned, nullptr) &&
      returned >= sizeof seek) {
    report.hasSeekPenalty = true;
    report.incursSeekPenalty = seek.IncursSeekPenalty != FALSE;
  }
  const long disk = DiskNumber(volume);
  CloseHandle(volume);
  if (disk >= 0) {
    FillHotplug(disk, &report);
    report.removalPolicy = DiskRemovalPolicy(disk);
  }
  DescribeStorage(report, out);
}

}  // namespace

bool QueryVolume(const std::string& path, VolumeFacts* out, SysError* err) {
  std::wstring wide = Widen(path);
  wchar_t root[MAX_PATH + 1];
  if (!GetVolumePathNameW(wide.c_str(), root, MAX_PATH)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "GetVolumePathNameW", path);
    return false;
  }
  ULARGE_INTEGER available, total, freeBytes;
  if (!GetDiskFreeSpaceExW(wide.c_str(), &available, &total, &freeBytes)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "GetDiskFreeSpaceExW", path);
    return false;
  }
  wchar_t fsName[MAX_PATH + 1] = {0};
  DWORD flags = 0;
  if (GetVolumeInformationW(root, nullptr, 0, nullptr, nullptr, &flags, fsName, MAX_PATH)) {
    DescribeFileSystem(fsName, flags, out);
  }
  DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, totalClusters = 0;
  if (GetDiskFreeSpaceW(root, &sectorsPerCluster, &bytesPerSector, &freeClusters, &totalClusters)) {
    out->blockSize = sectorsPerCluster * bytesPerSector;
    out->directIoAlignment = bytesPerSector;
  }
  out->path = path;
  out->mountPoint = Narrow(root);
  out->totalBytes = total.QuadPart;
  out->freeBytes = freeBytes.QuadPart;
  out->availableBytes = available.QuadPart;
  FillDeviceFacts(root, out);
  return true;
}

}  // namespace plumb
