// The facts of win/volume_facts.h: which disks are internal, which flags mean clones.
#include "win/volume_facts.h"

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

// Buses that only attach outside the computer (an SD card in a laptop's own reader included).
bool ExternalBus(STORAGE_BUS_TYPE type) {
  return type == BusTypeUsb || type == BusType1394 || type == BusTypeSd;
}

// Buses of disks inside the computer (eMMC is MMC), and of the same disks in an enclosure (NVMe
// over Thunderbolt or USB4, eSATA): the removal policy tells which. Virtual disks, Storage Spaces
// and iSCSI have no place of their own.
bool DiskBus(STORAGE_BUS_TYPE type) {
  return type == BusTypeNvme || type == BusTypeSata || type == BusTypeAta || type == BusTypeSas ||
         type == BusTypeScsi || type == BusTypeRAID || type == BusTypeMmc;
}

}  // namespace

void DescribeStorage(const StorageReport& report, VolumeFacts* out) {
  if (report.hasDescriptor) {
    if (const char* bus = BusName(report.busType)) out->bus = bus;
  }
  // STORAGE_HOTPLUG_INFO's DeviceHotplug is set for a disk whose removal policy is
  // ExpectSurpriseRemoval; ExpectOrderlyRemoval is a disk that leaves too, once told.
  const bool leaves =
      (report.hasDescriptor && (report.removableMedia || ExternalBus(report.busType))) ||
      (report.hasHotplug && (report.mediaRemovable || report.deviceHotplug)) ||
      report.removalPolicy == kExpectOrderlyRemoval ||
      report.removalPolicy == kExpectSurpriseRemoval;
  if (leaves) {
    out->internal = false;
  } else if (report.removalPolicy == kExpectNoRemoval && report.hasDescriptor &&
             DiskBus(report.busType)) {
    out->internal = true;
  }
  if (report.hasSeekPenalty) {
    out->rotational = report.incursSeekPenalty;
    // A virtual disk's answer describes the host's emulation, not a medium.
    if (!out->bus || *out->bus != "virtual") out->medium = report.incursSeekPenalty ? "hdd" : "ssd";
  }
}

void DescribeFileSystem(const std::wstring& fileSystemName, DWORD flags, VolumeFacts* out) {
  out->fsType = Narrow(fileSystemName);
  out->supportsSparse = (flags & FILE_SUPPORTS_SPARSE_FILES) != 0;
  out->supportsClones = (flags & FILE_SUPPORTS_BLOCK_REFCOUNTING) != 0;
  out->readOnly = (flags & FILE_READ_ONLY_VOLUME) != 0;
}

}  // namespace plumb
