// MappedFile on Windows: CreateFileMapping and MapViewOfFile. Forget uses VirtualUnlock, which on
// pages that are not locked takes them out of the process's working set (they stay in the
// standby list, the file cache).
#include "mapped_file.h"

#include <windows.h>

#include "win/paths.h"

namespace plumb {

bool MappedFile::Open(const std::string& path) {
  Close();
  // Others may read it, and rename or delete it (the next scan's cache replaces it by a rename).
  HANDLE file = CreateFileW(Widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE,
                            nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) return false;
  LARGE_INTEGER length{};
  if (GetFileType(file) == FILE_TYPE_DISK && GetFileSizeEx(file, &length) && length.QuadPart > 0) {
    HANDLE mapping = CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (mapping) {
      void* view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
      if (view) {
        data_ = static_cast<const uint8_t*>(view);
        size_ = static_cast<uint64_t>(length.QuadPart);
        mapping_ = reinterpret_cast<intptr_t>(mapping);
      } else {
        CloseHandle(mapping);
      }
    }
  }
  CloseHandle(file);  // the mapping keeps the file
  return data_ != nullptr;
}

void MappedFile::Close() {
  if (data_) UnmapViewOfFile(data_);
  if (mapping_) CloseHandle(reinterpret_cast<HANDLE>(mapping_));
  data_ = nullptr;
  size_ = 0;
  mapping_ = 0;
}

uint64_t MappedFile::PageBytes() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
}

void MappedFile::Release(uint64_t offset, uint64_t bytes) {
  VirtualUnlock(const_cast<uint8_t*>(data_) + offset, static_cast<SIZE_T>(bytes));
}

}  // namespace plumb
