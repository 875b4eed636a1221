// Win32 error numbers → the errno-style names Node uses, so JS handles one set of codes.
#include <windows.h>

#include "plumb.h"
#include "win/handles.h"

namespace plumb {

std::string ErrorCodeName(long osError) {
  switch (osError) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE: return "ENOENT";
    case ERROR_ACCESS_DENIED: return "EACCES";
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION: return "EBUSY";
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return "EEXIST";
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return "ENOSPC";
    case ERROR_WRITE_PROTECT: return "EROFS";
    case ERROR_NOT_SAME_DEVICE: return "EXDEV";
    case ERROR_INVALID_PARAMETER: return "EINVAL";
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION: return "ENOTSUP";
    case ERROR_OPERATION_ABORTED: return "ECANCELED";
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return "ENOMEM";
    case ERROR_FILENAME_EXCED_RANGE: return "ENAMETOOLONG";
    case kNotADiskFile:
    case ERROR_BAD_DEV_TYPE: return "EFTYPE";  // a device name asked for a file's attributes
    default: return "EWIN" + std::to_string(osError);
  }
}

std::string ErrorMessage(long osError) {
  if (osError == static_cast<long>(kNotADiskFile))
    return "a device or pipe, not a file on a disk (Plumb does not open devices or pipes)";
  wchar_t* buffer = nullptr;
  DWORD length = FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, static_cast<DWORD>(osError), 0, reinterpret_cast<wchar_t*>(&buffer), 0, nullptr);
  if (length == 0 || buffer == nullptr) return "Windows error " + std::to_string(osError);
  while (length > 0 && (buffer[length - 1] == L'\n' || buffer[length - 1] == L'\r' ||
                        buffer[length - 1] == L'.')) {
    --length;
  }
  int bytes = WideCharToMultiByte(CP_UTF8, 0, buffer, static_cast<int>(length), nullptr, 0, nullptr,
                                  nullptr);
  std::string text(static_cast<size_t>(bytes), '\0');
  WideCharToMultiByte(CP_UTF8, 0, buffer, static_cast<int>(length), text.data(), bytes, nullptr,
                      nullptr);
  LocalFree(buffer);
  return text;
}

}  // namespace plumb
