// What Windows reports of a volume, turned into the facts Plumb shows: kept apart from the calls
// that ask (win/volume.cc) so documented reports can be fed in (tests/windows/volume-fixtures).
#pragma once

#include <windows.h>
#include <winioctl.h>

#include <string>

#include "plumb.h"

namespace plumb {

// cfgmgr32.h's CM_REMOVAL_POLICY values, as SPDRP_REMOVAL_POLICY gives them (0: not read).
enum RemovalPolicy : DWORD {
  kRemovalPolicyUnknown = 0,
  kExpectNoRemoval = 1,
  kExpectOrderlyRemoval = 2,
  kExpectSurpriseRemoval = 3,
};

// What the storage stack answers of a volume's disk, each part when it was given:
// IOCTL_STORAGE_QUERY_PROPERTY's StorageDeviceProperty (STORAGE_DEVICE_DESCRIPTOR) and
// StorageDeviceSeekPenaltyProperty (DEVICE_SEEK_PENALTY_DESCRIPTOR), IOCTL_STORAGE_GET_HOTPLUG_INFO
// (STORAGE_HOTPLUG_INFO), and the disk device's removal policy (SPDRP_REMOVAL_POLICY).
struct StorageReport {
  bool hasDescriptor = false;
  STORAGE_BUS_TYPE busType = BusTypeUnknown;
  bool removableMedia = false;
  bool hasSeekPenalty = false;
  bool incursSeekPenalty = false;
  bool hasHotplug = false;
  bool mediaRemovable = false;
  bool deviceHotplug = false;
  RemovalPolicy removalPolicy = kRemovalPolicyUnknown;
};

// Bus, internal or not, and medium from the storage stack's report. The bus alone cannot say
// internal (a Thunderbolt NVMe enclosure reports BusTypeNvme like the SSD inside the PC): a disk
// is internal when Windows expects no removal of it, external when its medium is removable, its
// bus only attaches outside (USB, FireWire, SD), or Windows expects it to be unplugged.
void DescribeStorage(const StorageReport& report, VolumeFacts* out);

// File system name and what it supports, from GetVolumeInformationW's name and flags.
void DescribeFileSystem(const std::wstring& fileSystemName, DWORD flags, VolumeFacts* out);

}  // namespace plumb
