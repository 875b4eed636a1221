// Feeds one volume report, as Windows' calls return it, to the engine's own
// DescribeStorage and DescribeFileSystem (native/src/win/volume_facts.cc) and
// prints the facts as one JSON line, for
// tests/windows/volume-fixtures.test.mjs. Built with the engine by
// scripts/check-windows.mjs.
//   describe-volume BUS_TYPE REMOVABLE SEEK_PENALTY HOTPLUG REMOVAL_POLICY
//                   FILE_SYSTEM FLAGS
//   (a BUS_TYPE of "none" when no descriptor came back; SEEK_PENALTY 0, 1 or
//   "none"; HOTPLUG as MediaRemovable and DeviceHotplug, "00" to "11", or
//   "none"; REMOVAL_POLICY 1 to 3, or "none")
#include <cstdio>
#include <cstdlib>
#include <string>

#include "win/volume_facts.h"

namespace {

std::string Json(const std::optional<std::string> &text) {
  return text ? "\"" + *text + "\"" : "null";
}

std::string Json(const std::optional<bool> &flag) {
  return flag ? (*flag ? "true" : "false") : "null";
}

}  // namespace

int wmain(int argc, wchar_t **argv) {
  if (argc != 8) {
    std::fputs(
        "usage: describe-volume BUS_TYPE REMOVABLE SEEK_PENALTY HOTPLUG "
        "REMOVAL_POLICY FILE_SYSTEM FLAGS\n",
        stderr);
    return 2;
  }
  plumb::StorageReport report;
  if (std::wstring(argv[1]) != L"none") {
    report.hasDescriptor = true;
    report.busType = static_cast<STORAGE_BUS_TYPE>(std::wcstol(argv[1], nullptr, 0));
    report.removableMedia = std::wstring(argv[2]) == L"1";
  }
  if (std::wstring(argv[3]) != L"none") {
    report.hasSeekPenalty = true;
    report.incursSeekPenalty = std::wstring(argv[3]) == L"1";
  }
  const std::wstring hotplug = argv[4];
  if (hotplug != L"none") {
    report.hasHotplug = true;
    report.mediaRemovable = hotplug.size() == 2 && hotplug[0] == L'1';
    report.deviceHotplug = hotplug.size() == 2 && hotplug[1] == L'1';
  }
  if (std::wstring(argv[5]) != L"none") {
    report.removalPolicy =
        static_cast<plumb::RemovalPolicy>(std::wcstoul(argv[5], nullptr, 0));
  }
  plumb::VolumeFacts facts;
  plumb::DescribeStorage(report, &facts);
  plumb::DescribeFileSystem(argv[6], static_cast<DWORD>(std::wcstoul(argv[7], nullptr, 0)), &facts);
  std::printf(
      "{\"bus\":%s,\"internal\":%s,\"medium\":%s,\"rotational\":%s,"
      "\"fsType\":%s,"
      "\"supportsClones\":%s,\"supportsSparse\":%s,\"readOnly\":%s}\n",
      Json(facts.bus).c_str(), Json(facts.internal).c_str(), Json(facts.medium).c_str(),
      Json(facts.rotational).c_str(), Json(facts.fsType).c_str(),
      Json(facts.supportsClones).c_str(), Json(facts.supportsSparse).c_str(),
      Json(facts.readOnly).c_str());
  return 0;
}
