// What Windows reports of a volume, turned into the facts Plumb shows: kept apart from the calls
// that ask (win/volume.cc) so documented reports can be fed in (tests/windows/volume-fixtures).
#pragma once

#include <windows.h>
#include <winioctl.h>

#include <string>

#include "plumb.h"

namespace plumb {

// IOCTL_STORAGE_QUERY_PROPERTY's answers: StorageDeviceProperty (STORAGE_DEVICE_DESCRIPTOR) and
// StorageDeviceSeekPenaltyProperty (DEVICE_SEEK_PENALTY_DESCRIPTOR), each when it was given.
struct StorageReport {
  bool hasDescriptor = false;
  STORAGE_BUS_TYPE busType = BusTypeUnknown;
  bool removableMedia = false;
  bool hasSeekPenalty = false;
  bool incursSeekPenalty = false;
};

// Bus, internal or not, and medium from the storage stack's report.
void DescribeStorage(const StorageReport& report, VolumeFacts* out);

// File system name and what it supports, from GetVolumeInformationW's name and flags.
void DescribeFileSystem(const std::wstring& fileSystemName, DWORD flags, VolumeFacts* out);

}  // namespace plumb
