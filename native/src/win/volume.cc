// Windows volume facts: the volume root, its file system and flags, and its free space.
#include <windows.h>

#include "plumb.h"
#include "win/paths.h"

#ifndef FILE_SUPPORTS_BLOCK_REFCOUNTING  // ReFS block cloning; missing from older SDKs and mingw
#define FILE_SUPPORTS_BLOCK_REFCOUNTING 0x08000000
#endif

namespace plumb {

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
  return true;
}

}  // namespace plumb
