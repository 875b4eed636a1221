// ListFolder on Windows: FindFirstFileExW for the names, then one handle per entry for what the
// walk needs and a listing does not give (volume serial number, file id, link count). Reparse
// points (symbolic links, junctions, mount points) are reported as links and never followed.
#include "walk.h"

#include <windows.h>

#include "win/paths.h"

namespace plumb {
namespace {

// FILETIME (100 ns ticks since 1601) as milliseconds since 1970, to the last bit as Node reports
// them: libuv splits the ticks into whole seconds and nanoseconds, and Node adds sec * 1e3 and
// nsec / 1e6 as doubles. Dividing the ticks by 1e4 instead rounded differently about one time in
// four, and then every file looked "changed since the scan" to a dedupe or a Trash batch.
double Milliseconds(LARGE_INTEGER ticks) {
  const uint64_t since1970 = static_cast<uint64_t>(ticks.QuadPart) - 116444736000000000ULL;
  const uint64_t seconds = since1970 / 10000000ULL;
  const uint64_t nanoseconds = (since1970 - seconds * 10000000ULL) * 100ULL;
  return static_cast<double>(seconds) * 1e3 + static_cast<double>(nanoseconds) / 1e6;
}

bool StatHandle(const std::string& path, FolderEntry* out, SysError* err) {
  HANDLE h =
      CreateFileW(Widen(path).c_str(), FILE_READ_ATTRIBUTES,
                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                  FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "lstat", path);
    return false;
  }
  BY_HANDLE_FILE_INFORMATION info;
  FILE_STANDARD_INFO standard;
  FILE_BASIC_INFO basic;
  const bool ok = GetFileInformationByHandle(h, &info) &&
                  GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard) &&
                  GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic);
  const DWORD error = GetLastError();
  CloseHandle(h);
  if (!ok) {
    *err = MakeSysError(static_cast<long>(error), "lstat", path);
    return false;
  }
  const DWORD attributes = info.dwFileAttributes;
  out->kind = (attributes & FILE_ATTRIBUTE_REPARSE_POINT) ? EntryKind::kSymlink
              : (attributes & FILE_ATTRIBUTE_DIRECTORY)   ? EntryKind::kFolder
                                                          : EntryKind::kFile;
  out->dev = info.dwVolumeSerialNumber;
  out->ino = (static_cast<uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
  out->links = info.nNumberOfLinks;
  out->size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  out->allocatedBytes = static_cast<uint64_t>(standard.AllocationSize.QuadPart);
  out->mtimeMs = Milliseconds(basic.LastWriteTime);
  out->ctimeMs = Milliseconds(basic.ChangeTime);
  return true;
}

std::string Join(const std::string& dir, const std::string& name) {
  return (!dir.empty() && (dir.back() == '\\' || dir.back() == '/')) ? dir + name
                                                                     : dir + "\\" + name;
}

}  // namespace

bool StatPath(const std::string& path, FolderEntry* out, SysError* err) {
  return StatHandle(path, out, err);
}

std::string AbsolutePath(const std::string& path) {
  const std::wstring wide = Widen(path.empty() ? "." : path);
  const DWORD needed = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (needed == 0) return path;
  std::wstring full(needed, L'\0');
  const DWORD got = GetFullPathNameW(wide.c_str(), needed, full.data(), nullptr);
  full.resize(got);
  // No trailing separator, except at a drive root ("C:\").
  while (full.size() > 3 && (full.back() == L'\\' || full.back() == L'/')) full.pop_back();
  return Narrow(full);
}

bool ListFolder(const std::string& dir, std::vector<FolderEntry>* out, SysError* err) {
  WIN32_FIND_DATAW found;
  HANDLE find = FindFirstFileExW(Widen(Join(dir, "*")).c_str(), FindExInfoBasic, &found,
                                 FindExSearchNameMatch, nullptr, FIND_FIRST_EX_LARGE_FETCH);
  if (find == INVALID_HANDLE_VALUE) {
    *err = MakeSysError(static_cast<long>(GetLastError()), "FindFirstFileExW", dir);
    return false;
  }
  do {
    const std::wstring name = found.cFileName;
    if (name == L"." || name == L"..") continue;
    FolderEntry entry;
    entry.name = Narrow(name);
    if (found.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
      entry.kind = EntryKind::kSymlink;
    } else {
      SysError ignored;
      if (!StatHandle(Join(dir, entry.name), &entry, &ignored)) entry.kind = EntryKind::kUnreadable;
    }
    out->push_back(std::move(entry));
  } while (FindNextFileW(find, &found));
  const DWORD error = GetLastError();
  FindClose(find);
  if (error != ERROR_NO_MORE_FILES) {
    *err = MakeSysError(static_cast<long>(error), "FindNextFileW", dir);
    return false;
  }
  return true;
}

}  // namespace plumb
