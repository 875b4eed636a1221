// Opening by path on Windows: a name such as CON, NUL or COM1, in any folder, or \\.\pipe\...,
// opens a device or a pipe instead of a file, and reading the console or a pipe waits for ever.
// Plumb uses files on a disk only, and GetFileType on the open handle tells which it got.
#pragma once

#include <windows.h>

namespace plumb {

// Carried as EFTYPE (win/errors.cc), as a FIFO or device is on Linux and macOS.
constexpr DWORD kNotADiskFile = ERROR_BAD_FILE_TYPE;

// `handle` when it is a file or folder on a disk (or INVALID_HANDLE_VALUE already); anything else
// is closed, and INVALID_HANDLE_VALUE returned with the last error kNotADiskFile.
inline HANDLE OnlyDiskFile(HANDLE handle) {
  if (handle != INVALID_HANDLE_VALUE && GetFileType(handle) != FILE_TYPE_DISK) {
    CloseHandle(handle);
    SetLastError(kNotADiskFile);
    return INVALID_HANDLE_VALUE;
  }
  return handle;
}

}  // namespace plumb
