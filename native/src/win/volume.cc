// Windows volume facts: the volume root, its file system and flags, and its free space.
#include <windows.h>
#include <winioctl.h>

#include "plumb.h"
#include "win/paths.h"

#ifndef FILE_SUPPORTS_BLOCK_REFCOUNTING  // ReFS block cloning; missing from older SDKs and mingw
#define FILE_SUPPORTS_BLOCK_REFCOUNTING 0x08000000
#endif

namespace plumb {
namespace {

const char* BusName(STORAGE_BUS_TYPE type) {
  switch (type) {
    case BusTypeNvme: return "nvme";
    case BusTypeSata: return "sata";
    case BusTypeAta: return "ata";
    case BusTypeUsb: return "usb";
    case BusTypeSas: return "sas";
    case BusTypeScsi: return "scsi";
    case BusTypeSd: return "sd";
    case BusTypeMmc: return "mmc";
    case BusType1394: return "firewire";
    case BusTypeRAID: return "raid";
    case BusTypeiScsi: return "iscsi";
    case BusTypeVirtual:
    case BusTypeFileBackedVirtual: return "virtual";
    case BusTypeSpaces: return "spaces";
    default: return nullptr;
  }
}

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
  if (DeviceIoControl(volume, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, buffer,
                      sizeof buffer, &returned, nullptr) &&
      returned >= sizeof(STORAGE_DEVICE_DESCRIPTOR)) {
    const auto* descriptor = reinterpret_cast<const STORAGE_DEVICE_DESCRIPTOR*>(buffer);
    if (const char* bus = BusName(descriptor->BusType)) out->bus = bus;
    if (descriptor->RemovableMedia || descriptor->BusType == BusTypeUsb ||
        descriptor->BusType == BusType1394 || descriptor->BusType == BusTypeSd) {
      out->internal = false;
    }
  }
  query.PropertyId = StorageDeviceSeekPenaltyProperty;
  DEVICE_SEEK_PENALTY_DESCRIPTOR seek = {};
  if (DeviceIoControl(volume, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, &seek,
                      sizeof seek, &returned, nullptr) &&
      returned >= sizeof seek) {
    out->rotational = seek.IncursSeekPenalty != FALSE;
    // A virtual disk's answer describes the host's emulation, not a medium.
    if (!out->bus || *out->bus != "virtual") out->medium = seek.IncursSeekPenalty ? "hdd" : "ssd";
  }
  CloseHandle(volume);
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
    out->fsType = Narrow(fsName);
    out->supportsSparse = (flags & FILE_SUPPORTS_SPARSE_FILES) != 0;
    out->supportsClones = (flags & FILE_SUPPORTS_BLOCK_REFCOUNTING) != 0;
    out->readOnly = (flags & FILE_READ_ONLY_VOLUME) != 0;
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
