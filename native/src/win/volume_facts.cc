// The facts of win/volume_facts.h: which buses are external, which flags mean clones.
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

}  // namespace

void DescribeStorage(const StorageReport& report, VolumeFacts* out) {
  if (report.hasDescriptor) {
    if (const char* bus = BusName(report.busType)) out->bus = bus;
    if (report.removableMedia || report.busType == BusTypeUsb || report.busType == BusType1394 ||
        report.busType == BusTypeSd) {
      out->internal = false;
    }
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
