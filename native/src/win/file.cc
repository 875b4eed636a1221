// IoFile on Windows: FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH with sector-aligned
// VirtualAlloc buffers; every transfer passes an OVERLAPPED so the same code serves handles opened
// for the overlapped queue-depth engine.
#include <windows.h>

#include <cstdio>

#include "io.h"
#include "win/handles.h"
#include "win/paths.h"

namespace plumb {
namespace {

HANDLE H(intptr_t handle) { return reinterpret_cast<HANDLE>(handle); }
constexpr intptr_t kNoHandle = -1;  // INVALID_HANDLE_VALUE

uint32_t SectorSize(const std::string& path) {
  wchar_t root[MAX_PATH + 1];
  DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, totalClusters = 0;
  if (GetVolumePathNameW(Widen(path).c_str(), root, MAX_PATH) &&
      GetDiskFreeSpaceW(root, &sectorsPerCluster, &bytesPerSector, &freeClusters, &totalClusters) &&
      bytesPerSector > 0) {
    return bytesPerSector;
  }
  return 4096;  // no answer: every common sector size divides 4096
}

// One transfer at `offset`, waiting for it whether the handle is overlapped or not.
bool Transfer(HANDLE file, bool write, void* data, DWORD bytes, uint64_t offset, DWORD* done,
              DWORD* error) {
  OVERLAPPED ov = {};
  ov.Offset = static_cast<DWORD>(offset);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  ov.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  if (!ov.hEvent) {
    *error = GetLastError();
    return false;
  }
  BOOL ok = write ? WriteFile(file, data, bytes, nullptr, &ov)
                  : ReadFile(file, data, bytes, nullptr, &ov);
  if (!ok && GetLastError() != ERROR_IO_PENDING) {
    *error = GetLastError();
    CloseHandle(ov.hEvent);
    return false;
  }
  ok = GetOverlappedResult(file, &ov, done, TRUE);
  *error = ok ? 0 : GetLastError();
  CloseHandle(ov.hEvent);
  return ok != FALSE;
}

}  // namespace

// Page-aligned, which is a multiple of every sector size.
void* AllocateAligned(size_t bytes, size_t, bool) {
  return VirtualAlloc(nullptr, bytes ? bytes : 1, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

void FreeAligned(void* data, size_t) { VirtualFree(data, 0, MEM_RELEASE); }

bool RemoveFile(const std::string& path) {
  return DeleteFileW(Widen(path).c_str()) || GetLastError() == ERROR_FILE_NOT_FOUND;
}

FILE* OpenRegularFile(const std::string& path, const char* mode) {
  const std::wstring wide = Widen(path);
  // A device name (NUL, CON, COM1) names the device in every folder, so asking first cannot be
  // raced by a swap (<io.h>, which would give the handle behind a FILE*, is shadowed by ours).
  HANDLE probe =
      CreateFileW(wide.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                  OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (probe != INVALID_HANDLE_VALUE) {
    const bool disk = GetFileType(probe) == FILE_TYPE_DISK;
    CloseHandle(probe);
    if (!disk) return nullptr;
  }
  return _wfopen(wide.c_str(), mode[0] == 'w' ? L"wb" : L"rb");
}

bool FileExists(const std::string& path) {
  return GetFileAttributesW(Widen(path).c_str()) != INVALID_FILE_ATTRIBUTES;
}

IoFile::~IoFile() {
  if (handle_ != kNoHandle) CloseHandle(H(handle_));
}

bool IoFile::Open(const std::string& path, const OpenOptions& options, SysError* err) {
  path_ = path;
  const std::wstring wide = Widen(path);
  DWORD access = GENERIC_READ, disposition = OPEN_EXISTING;
  if (options.access == FileAccess::kCreateTruncate) {
    access = GENERIC_WRITE;
    disposition = CREATE_ALWAYS;
  } else if (options.access == FileAccess::kReadWrite) {
    access = GENERIC_READ | GENERIC_WRITE;
    disposition = OPEN_ALWAYS;
  }
  const DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
  const DWORD flags = FILE_ATTRIBUTE_NORMAL | (options.overlapped ? FILE_FLAG_OVERLAPPED : 0);
  HANDLE file = INVALID_HANDLE_VALUE;
  direct_ = false;
  if (!options.buffered) {
    file = OnlyDiskFile(CreateFileW(wide.c_str(), access, share, nullptr, disposition,
                                    flags | FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH,
                                    nullptr));
    const DWORD error = file == INVALID_HANDLE_VALUE ? GetLastError() : 0;
    // Some network and virtual file systems refuse unbuffered handles: go buffered, say so.
    if (file == INVALID_HANDLE_VALUE && error != ERROR_INVALID_PARAMETER &&
        error != ERROR_NOT_SUPPORTED) {
      *err = MakeSysError(static_cast<long>(error), "CreateFileW", path);
      return false;
    }
    direct_ = file != INVALID_HANDLE_VALUE;
  }
  if (file == INVALID_HANDLE_VALUE) {
    file = OnlyDiskFile(
        CreateFileW(wide.c_str(), access, share, nullptr, disposition, flags, nullptr));
    if (file == INVALID_HANDLE_VALUE) {
      *err = MakeSysError(static_cast<long>(GetLastError()), "CreateFileW", path);
      return false;
    }
  }
  handle_ = reinterpret_cast<intptr_t>(file);
  alignment_ = direct_ ? SectorSize(path) : 1;
  return true;
}

bool IoFile::WriteAt(const void* data, size_t bytes, uint64_t offset, SysError* err) {
  size_t done = 0;
  while (done < bytes) {
    const DWORD n = static_cast<DWORD>(std::min<size_t>(bytes - done, 1u << 30));
    DWORD moved = 0, error = 0;
    if (!Transfer(H(handle_), true, const_cast<uint8_t*>(static_cast<const uint8_t*>(data)) + done,
                  n, offset + done, &moved, &error)) {
      *err = MakeSysError(static_cast<long>(error), "WriteFile", path_);
      return false;
    }
    if (moved == 0) {
      *err = MakeSysError(ERROR_DISK_FULL, "WriteFile", path_);
      return false;
    }
    done += moved;
    transferred_ = true;
  }
  return true;
}

bool IoFile::ReadAt(void* data, size_t bytes, uint64_t offset, size_t* done, SysError* err) {
  *done = 0;
  while (*done < bytes) {
    const DWORD n = static_cast<DWORD>(std::min<size_t>(bytes - *done, 1u << 30));
    DWORD moved = 0, error = 0;
    if (!Transfer(H(handle_), false, static_cast<uint8_t*>(data) + *done, n, offset + *done, &moved,
                  &error)) {
      if (error == ERROR_HANDLE_EOF) break;
      *err = MakeSysError(static_cast<long>(error), "ReadFile", path_);
      return false;
    }
    if (moved == 0) break;
    *done += moved;
    transferred_ = true;
    if (direct_ && (*done % alignment_) != 0) break;  // an unbuffered read stops short only at EOF
  }
  return true;
}

bool IoFile::Flush(SysError* err) {
  if (!FlushFileBuffers(H(handle_))) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "FlushFileBuffers", path_);
    return false;
  }
  return true;
}

const char* CacheEvictionMethod() {
  return "an unbuffered open (the cache manager purges the file)";
}

// Opening the file unbuffered makes the cache manager flush and purge its cached pages.
void IoFile::DropCache(uint64_t) {
  HANDLE purge = CreateFileW(Widen(path_).c_str(), GENERIC_READ,
                             FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                             OPEN_EXISTING, FILE_FLAG_NO_BUFFERING, nullptr);
  if (purge != INVALID_HANDLE_VALUE) CloseHandle(purge);
}

bool IoFile::Size(uint64_t* bytes, SysError* err) {
  LARGE_INTEGER size;
  if (!GetFileSizeEx(H(handle_), &size)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "GetFileSizeEx", path_);
    return false;
  }
  *bytes = static_cast<uint64_t>(size.QuadPart);
  return true;
}

bool IoFile::Truncate(uint64_t bytes, SysError* err) {
  FILE_END_OF_FILE_INFO info;
  info.EndOfFile.QuadPart = static_cast<LONGLONG>(bytes);
  if (!SetFileInformationByHandle(H(handle_), FileEndOfFileInfo, &info, sizeof info)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "SetFileInformationByHandle", path_);
    return false;
  }
  return true;
}

bool IoFile::Close(SysError* err) {
  if (handle_ == kNoHandle) return true;
  HANDLE file = H(handle_);
  handle_ = kNoHandle;
  if (!CloseHandle(file)) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "CloseHandle", path_);
    return false;
  }
  return true;
}

}  // namespace plumb
