// ContentReader on Windows: a shared-read handle with FILE_FLAG_SEQUENTIAL_SCAN that opens a
// reparse point itself instead of its target, and leaves the last-access time alone.
#include <windows.h>

#include "content_hash.h"
#include "win/handles.h"
#include "win/paths.h"

namespace plumb {
namespace {

HANDLE H(intptr_t handle) { return reinterpret_cast<HANDLE>(handle); }
constexpr intptr_t kNoHandle = -1;  // INVALID_HANDLE_VALUE

}  // namespace

// Windows has no read that leaves the cache alone for buffered handles: read as always.
bool ReadsWouldFloodCache(uint64_t) { return false; }

ContentReader::~ContentReader() {
  if (handle_ != kNoHandle) CloseHandle(H(handle_));
}

bool ContentReader::Open(const std::string& path, SysError* err, bool) {
  path_ = path;
  HANDLE file =
      CreateFileW(Widen(path).c_str(), GENERIC_READ | FILE_WRITE_ATTRIBUTES,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                  FILE_FLAG_SEQUENTIAL_SCAN | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (file == INVALID_HANDLE_VALUE && GetLastError() == ERROR_ACCESS_DENIED) {
    file = CreateFileW(
        Widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
        nullptr, OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  }
  file = OnlyDiskFile(file);
  if (file == INVALID_HANDLE_VALUE) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "CreateFileW", path);
    return false;
  }
  // A last-access time of -1 tells NTFS not to update it through this handle.
  FILETIME keep;
  keep.dwLowDateTime = 0xFFFFFFFF;
  keep.dwHighDateTime = 0xFFFFFFFF;
  SetFileTime(file, nullptr, &keep, nullptr);
  handle_ = reinterpret_cast<intptr_t>(file);
  return true;
}

bool ContentReader::Size(uint64_t* bytes, SysError* err) {
  LARGE_INTEGER size;
  if (!GetFileSizeEx(H(handle_), &size)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "GetFileSizeEx", path_);
    return false;
  }
  *bytes = static_cast<uint64_t>(size.QuadPart);
  return true;
}

bool ContentReader::ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err) {
  *done = 0;
  while (*done < bytes) {
    OVERLAPPED ov = {};
    const uint64_t at = offset + *done;
    ov.Offset = static_cast<DWORD>(at);
    ov.OffsetHigh = static_cast<DWORD>(at >> 32);
    const size_t left = bytes - *done;
    const DWORD want = left > (1u << 30) ? (1u << 30) : static_cast<DWORD>(left);
    DWORD got = 0;
    if (!ReadFile(H(handle_), static_cast<char*>(data) + *done, want, &got, &ov)) {
      const DWORD error = GetLastError();
      if (error == ERROR_HANDLE_EOF) break;
      *err = MakeSysError(static_cast<long>(error), "ReadFile", path_);
      return false;
    }
    if (got == 0) break;
    *done += got;
  }
  return true;
}

}  // namespace plumb
