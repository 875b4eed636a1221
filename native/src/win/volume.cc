// Windows volume facts: the volume root, its file system and flags, and its free space.
#include <windows.h>
#include <winioctl.h>

#include "plumb.h"
#include "win/paths.h"
#include "win/volume_facts.h"

namespace plumb {
namespace {

// Bus, removability and seek penalty from IOCTL_STORAGE_QUERY_PROPERTY; needs no privileges.
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
  CloseHandle(volume);
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
