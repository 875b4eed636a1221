// Windows drive temperature: IOCTL_STORAGE_QUERY_PROPERTY with StorageDeviceTemperatureProperty
// (Windows 10 1607+), asked on the volume opened with no access rights. The control code is
// FILE_ANY_ACCESS, so no administrator rights are needed; drivers that keep the figure (stornvme
// for NVMe) answer, others fail the call and the temperature stays unknown (null).
#include <windows.h>
#include <winioctl.h>

#include <cstddef>

#include "io.h"
#include "win/paths.h"

namespace plumb {
namespace {

// The reply's layout (ntddstor.h). Declared here because mingw's winioctl.h names the property
// but not these structures.
struct PlumbTemperatureInfo {
  WORD index;
  SHORT temperature;  // °C
  SHORT overThreshold;
  SHORT underThreshold;
  BOOLEAN overThresholdChangeable;
  BOOLEAN underThresholdChangeable;
  BOOLEAN eventGenerated;
  BYTE reserved0;
  DWORD reserved1;
};
struct PlumbTemperatureDescriptor {
  DWORD version;
  DWORD size;
  SHORT criticalTemperature;
  SHORT warningTemperature;
  WORD infoCount;
  BYTE reserved0[2];
  DWORD reserved1[2];
  PlumbTemperatureInfo info[1];
};
static_assert(sizeof(PlumbTemperatureInfo) == 16, "STORAGE_TEMPERATURE_INFO is 16 bytes");
static_assert(offsetof(PlumbTemperatureDescriptor, info) == 24,
              "STORAGE_TEMPERATURE_DATA_DESCRIPTOR's entries start at byte 24");

}  // namespace

bool ReadDriveTemperature(const std::string& path, double* celsius, SysError* err) {
  const std::wstring wide = Widen(path);
  wchar_t root[MAX_PATH + 1];
  if (!GetVolumePathNameW(wide.c_str(), root, MAX_PATH)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "GetVolumePathNameW", path);
    return false;
  }
  const std::wstring device = VolumeDevicePath(root);
  if (device.empty()) return false;  // a network share: no drive of ours to ask
  HANDLE volume = CreateFileW(device.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                              OPEN_EXISTING, 0, nullptr);
  if (volume == INVALID_HANDLE_VALUE) return false;
  STORAGE_PROPERTY_QUERY query = {};
  query.PropertyId = StorageDeviceTemperatureProperty;
  query.QueryType = PropertyStandardQuery;
  alignas(8) unsigned char buffer[512] = {};
  DWORD returned = 0;
  const BOOL answered = DeviceIoControl(volume, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query,
                                        buffer, sizeof buffer, &returned, nullptr);
  CloseHandle(volume);
  if (!answered || returned < sizeof(PlumbTemperatureDescriptor)) return false;
  const auto* reply = reinterpret_cast<const PlumbTemperatureDescriptor*>(buffer);
  if (reply->infoCount == 0) return false;
  // Entry 0 is the device's own (composite) temperature; the others are its sensors.
  *celsius = reply->info[0].temperature;
  return true;
}

}  // namespace plumb
