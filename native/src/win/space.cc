// Windows space primitives: ReFS block cloning (FSCTL_DUPLICATE_EXTENTS_TO_FILE), sparse files
// (FSCTL_SET_SPARSE, FSCTL_SET_ZERO_DATA, FSCTL_QUERY_ALLOCATED_RANGES), times, attributes and ACL.
// Physical sharing from ReFS's FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT (extents with reference
// counts); where the file system does not answer it (NTFS, older Windows), sharing stays unknown.
// A copy is replaced by its clone while both are held open without sharing, which proves nobody
// else has the original open and keeps anyone from opening it until it is gone; zero blocks are
// punched the same way.
#include "space.h"

#include <windows.h>
#include <winioctl.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "engine/punch_zeros.h"
#include "win/handles.h"
#include "win/paths.h"

#ifndef FSCTL_DUPLICATE_EXTENTS_TO_FILE
#define FSCTL_DUPLICATE_EXTENTS_TO_FILE \
  CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 209, METHOD_BUFFERED, FILE_WRITE_DATA)
#endif

#ifndef FILE_SUPPORTS_BLOCK_REFCOUNTING
#define FILE_SUPPORTS_BLOCK_REFCOUNTING 0x08000000
#endif

#ifndef FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT  // Windows 10 2004+ SDKs; not in mingw
#define FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT \
  CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 244, METHOD_NEITHER, FILE_ANY_ACCESS)
#endif

namespace plumb {
namespace {

// The input of FSCTL_DUPLICATE_EXTENTS_TO_FILE (DUPLICATE_EXTENTS_DATA in the Windows SDK).
struct DuplicateExtents {
  HANDLE fileHandle;
  LARGE_INTEGER sourceFileOffset;
  LARGE_INTEGER targetFileOffset;
  LARGE_INTEGER byteCount;
};

// One call may clone at most under 4 GiB; stay well inside it, in whole clusters.
constexpr uint64_t kCloneChunkBytes = 1ull << 30;

struct Handle {
  HANDLE h = INVALID_HANDLE_VALUE;
  explicit Handle(HANDLE value) : h(value) {}
  ~Handle() {
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
  }
  bool ok() const { return h != INVALID_HANDLE_VALUE; }
};

HANDLE OpenPath(const std::string& path, DWORD access, DWORD share, DWORD disposition) {
  return OnlyDiskFile(CreateFileW(Widen(path).c_str(), access, share, nullptr, disposition,
                                  FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT,
                                  nullptr));
}

SysError LastError(const char* call, const std::string& path) {
  return MakeSysError(static_cast<long>(GetLastError()), call, path);
}

bool FileSize(HANDLE h, const std::string& path, uint64_t* size, SysError* err) {
  LARGE_INTEGER value;
  if (!GetFileSizeEx(h, &value)) {
    *err = LastError("GetFileSizeEx", path);
    return false;
  }
  *size = static_cast<uint64_t>(value.QuadPart);
  return true;
}

uint64_t AllocatedBytes(const std::string& path) {
  DWORD high = 0;
  DWORD low = GetCompressedFileSizeW(Widen(path).c_str(), &high);
  if (low == INVALID_FILE_SIZE && GetLastError() != NO_ERROR) return 0;
  return (static_cast<uint64_t>(high) << 32) | low;
}

bool SetSparse(HANDLE h, const std::string& path, SysError* err) {
  FILE_SET_SPARSE_BUFFER sparse;
  sparse.SetSparse = TRUE;
  DWORD returned = 0;
  if (!DeviceIoControl(h, FSCTL_SET_SPARSE, &sparse, sizeof sparse, nullptr, 0, &returned,
                       nullptr)) {
    *err = LastError("DeviceIoControl(FSCTL_SET_SPARSE)", path);
    return false;
  }
  return true;
}

bool SetEndOfFile(HANDLE h, const std::string& path, uint64_t bytes, SysError* err) {
  FILE_END_OF_FILE_INFO eof;
  eof.EndOfFile.QuadPart = static_cast<LONGLONG>(bytes);
  if (!SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof)) {
    *err = LastError("SetFileInformationByHandle", path);
    return false;
  }
  return true;
}

uint64_t ClusterBytes(const std::string& path) {
  wchar_t root[MAX_PATH];
  DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, totalClusters = 0;
  if (!GetVolumePathNameW(Widen(path).c_str(), root, MAX_PATH)) return 4096;
  if (!GetDiskFreeSpaceW(root, &sectorsPerCluster, &bytesPerSector, &freeClusters,
                         &totalClusters)) {
    return 4096;
  }
  return static_cast<uint64_t>(sectorsPerCluster) * bytesPerSector;
}

FILETIME ToFileTime(int64_t unixNs) {
  // FILETIME counts 100 ns ticks since 1601-01-01.
  const int64_t ticks = unixNs / 100 + 116444736000000000LL;
  FILETIME ft;
  ft.dwLowDateTime = static_cast<DWORD>(static_cast<uint64_t>(ticks) & 0xffffffffu);
  ft.dwHighDateTime = static_cast<DWORD>(static_cast<uint64_t>(ticks) >> 32);
  return ft;
}

// Alternate data streams (Zone.Identifier, ...) are not carried by a clone here: refuse rather
// than drop them.
bool HasAlternateStreams(const std::string& path) {
  WIN32_FIND_STREAM_DATA stream;
  HANDLE find = FindFirstStreamW(Widen(path).c_str(), FindStreamInfoStandard, &stream, 0);
  if (find == INVALID_HANDLE_VALUE) return false;
  bool extra = false;
  do {
    if (wcscmp(stream.cStreamName, L"::$DATA") != 0) extra = true;
  } while (!extra && FindNextStreamW(find, &stream));
  FindClose(find);
  return extra;
}

}  // namespace

namespace {

// The reply of FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT ([MS-FSCC] 2.3.34), declared here with
// our own names because mingw lacks it.
struct RefcountExtent {
  LONGLONG nextVcn;
  LONGLONG lcn;  // -1: a hole in a sparse file, or a partly allocated compression unit
  DWORD referenceCount;
};
struct RefcountPointers {
  DWORD extentCount;
  LONGLONG startingVcn;
  RefcountExtent extents[1];
};
static_assert(offsetof(RefcountPointers, extents) == 16 && sizeof(RefcountExtent) == 24,
              "RETRIEVAL_POINTERS_AND_REFCOUNT_BUFFER layout");

// The file's physical extents with reference counts, or nullopt where the file system does not
// keep them (only ReFS does) or an extent's place is not a plain cluster run.
std::optional<std::vector<FileExtent>> RefcountedExtents(const std::string& path) {
  wchar_t root[MAX_PATH];
  DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, totalClusters = 0;
  if (!GetVolumePathNameW(Widen(path).c_str(), root, MAX_PATH) ||
      !GetDiskFreeSpaceW(root, &sectorsPerCluster, &bytesPerSector, &freeClusters,
                         &totalClusters)) {
    return std::nullopt;
  }
  const uint64_t cluster = uint64_t{sectorsPerCluster} * bytesPerSector;
  Handle file(OpenPath(path, FILE_READ_ATTRIBUTES,
                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, OPEN_EXISTING));
  if (!file.ok() || cluster == 0) return std::nullopt;
  std::vector<FileExtent> extents;
  constexpr size_t kExtentsPerCall = 64;
  std::vector<LONGLONG> storage(
      (offsetof(RefcountPointers, extents) + kExtentsPerCall * sizeof(RefcountExtent)) /
      sizeof(LONGLONG));
  auto* reply = reinterpret_cast<RefcountPointers*>(storage.data());
  const DWORD replyBytes = static_cast<DWORD>(storage.size() * sizeof(LONGLONG));
  LONGLONG startingVcn = 0;
  for (;;) {
    DWORD returned = 0;
    const BOOL ok = DeviceIoControl(file.h, FSCTL_GET_RETRIEVAL_POINTERS_AND_REFCOUNT, &startingVcn,
                                    sizeof startingVcn, reply, replyBytes, &returned, nullptr);
    const DWORD error = ok ? ERROR_SUCCESS : GetLastError();
    if (error == ERROR_HANDLE_EOF) break;  // no clusters at or past startingVcn (an empty file)
    if (error != ERROR_SUCCESS && error != ERROR_MORE_DATA) return std::nullopt;
    LONGLONG vcn = reply->startingVcn;
    for (DWORD i = 0; i < reply->extentCount; ++i) {
      const RefcountExtent& e = reply->extents[i];
      if (e.lcn >= 0) {
        extents.push_back(
            FileExtent{static_cast<uint64_t>(vcn) * cluster, static_cast<uint64_t>(e.lcn) * cluster,
                       static_cast<uint64_t>(e.nextVcn - vcn) * cluster, e.referenceCount > 1});
      }
      vcn = e.nextVcn;
    }
    if (error == ERROR_SUCCESS || reply->extentCount == 0) break;
    startingVcn = vcn;
  }
  return extents;
}

// Renames the file behind `h` (opened with DELETE access) to `to`, which must not exist.
bool RenameByHandle(HANDLE h, const std::string& to, SysError* err) {
  const std::wstring wide = Widen(to);
  std::vector<char> buffer(sizeof(FILE_RENAME_INFO) + (wide.size() + 1) * sizeof(wchar_t), 0);
  auto* info = reinterpret_cast<FILE_RENAME_INFO*>(buffer.data());
  info->ReplaceIfExists = FALSE;
  info->RootDirectory = nullptr;
  info->FileNameLength = static_cast<DWORD>(wide.size() * sizeof(wchar_t));
  std::memcpy(info->FileName, wide.data(), info->FileNameLength);
  if (!SetFileInformationByHandle(h, FileRenameInfo, info, static_cast<DWORD>(buffer.size()))) {
    *err = LastError("SetFileInformationByHandle(FileRenameInfo)", to);
    return false;
  }
  return true;
}

int64_t UnixNs(const LARGE_INTEGER& fileTime) {
  return (fileTime.QuadPart - 116444736000000000LL) * 100;
}

// Whether the two open files hold exactly the same bytes (read from the start).
bool SameBytes(HANDLE a, HANDLE b, bool* same, SysError* err) {
  constexpr DWORD kBlock = 1 << 20;
  std::vector<char> x(kBlock), y(kBlock);
  LARGE_INTEGER zero;
  zero.QuadPart = 0;
  if (!SetFilePointerEx(a, zero, nullptr, FILE_BEGIN) ||
      !SetFilePointerEx(b, zero, nullptr, FILE_BEGIN)) {
    *err = LastError("SetFilePointerEx", "");
    return false;
  }
  for (;;) {
    DWORD gotX = 0, gotY = 0;
    if (!ReadFile(a, x.data(), kBlock, &gotX, nullptr) ||
        !ReadFile(b, y.data(), kBlock, &gotY, nullptr)) {
      *err = LastError("ReadFile", "");
      return false;
    }
    if (gotX != gotY || std::memcmp(x.data(), y.data(), gotX) != 0) {
      *same = false;
      return true;
    }
    if (gotX == 0) {
      *same = true;
      return true;
    }
  }
}

}  // namespace

bool ReplaceWithClone(const std::string& clone, const std::string& target,
                      const std::string& swapPath, const FileFacts& expected, ReplaceResult* out,
                      SysError* err) {
  // Share mode 0: fails with a sharing violation while any other program has the file open, and
  // keeps every program from opening it while held.
  Handle original(OpenPath(target, GENERIC_READ | DELETE, 0, OPEN_EXISTING));
  if (!original.ok()) {
    if (GetLastError() == ERROR_SHARING_VIOLATION) {
      out->outcome = ReplaceOutcome::kInUse;
      return true;
    }
    *err = LastError("CreateFileW", target);
    return false;
  }
  Handle copy(OpenPath(clone, GENERIC_READ | DELETE, 0, OPEN_EXISTING));
  if (!copy.ok()) {
    *err = LastError("CreateFileW", clone);
    return false;
  }
  BY_HANDLE_FILE_INFORMATION info;
  FILE_BASIC_INFO basic;
  if (!GetFileInformationByHandle(original.h, &info) ||
      !GetFileInformationByHandleEx(original.h, FileBasicInfo, &basic, sizeof basic)) {
    *err = LastError("GetFileInformationByHandle", target);
    return false;
  }
  const uint64_t index = (static_cast<uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
  const uint64_t size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  bool same = false;
  if (index != expected.ino || size != expected.size ||
      UnixNs(basic.LastWriteTime) != expected.mtimeNs ||
      UnixNs(basic.ChangeTime) != expected.ctimeNs) {
    out->outcome = ReplaceOutcome::kChanged;
    return true;
  }
  // Held without sharing from here on, the original cannot change: this check is final.
  if (!SameBytes(original.h, copy.h, &same, err)) return false;
  if (!same) {
    out->outcome = ReplaceOutcome::kChanged;
    return true;
  }
  // Windows has no atomic exchange: three renames by the held handles, so the original is never
  // open to anyone else. A crash between them is undone by the journal (it knows `swapPath`).
  if (!RenameByHandle(original.h, swapPath, err)) return false;
  if (!RenameByHandle(copy.h, target, err)) {
    SysError ignored;
    RenameByHandle(original.h, target, &ignored);
    return false;
  }
  if (!RenameByHandle(original.h, clone, err)) return false;
  FILE_DISPOSITION_INFO gone;
  gone.DeleteFile = TRUE;
  if (!SetFileInformationByHandle(original.h, FileDispositionInfo, &gone, sizeof gone)) {
    *err = LastError("SetFileInformationByHandle(FileDispositionInfo)", clone);
    return false;
  }
  out->outcome = ReplaceOutcome::kReplaced;
  return true;
}

bool QueryFileSharing(const std::string& path, FileSharing* out, SysError* err) {
  WIN32_FILE_ATTRIBUTE_DATA data;
  if (!GetFileAttributesExW(Widen(path).c_str(), GetFileExInfoStandard, &data)) {
    *err = LastError("GetFileAttributesExW", path);
    return false;
  }
  out->logicalBytes = (static_cast<uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
  out->allocatedBytes = AllocatedBytes(path);
  out->compressed = (data.dwFileAttributes & FILE_ATTRIBUTE_COMPRESSED) != 0;
  if (auto extents = RefcountedExtents(path)) {
    uint64_t shared = 0;
    for (const FileExtent& e : *extents)
      if (e.shared) shared += e.length;
    out->sharedBytes = shared;
    out->extents = std::move(extents);
  }
  return true;
}

bool DedupeWholeFile(const std::string&, const std::string& target, DedupeOutcome*, SysError* err) {
  *err = MakeSysError(ERROR_NOT_SUPPORTED, "dedupeFile", target);
  err->message =
      "Windows has no kernel-verified in-place dedupe; clone to a temporary file instead";
  return false;
}

bool QuerySharingSupport(const std::string& file, std::optional<bool>* out, SysError* err) {
  wchar_t root[MAX_PATH];
  DWORD flags = 0;
  if (!GetVolumePathNameW(Widen(file).c_str(), root, MAX_PATH) ||
      !GetVolumeInformationW(root, nullptr, 0, nullptr, nullptr, &flags, nullptr, 0)) {
    *err = LastError("GetVolumeInformationW", file);
    return false;
  }
  *out = (flags & FILE_SUPPORTS_BLOCK_REFCOUNTING) != 0;  // ReFS block cloning
  return true;
}

bool CloneFile(const std::string& source, const std::string& target, SysError* err) {
  Handle src(OpenPath(source, GENERIC_READ, FILE_SHARE_READ, OPEN_EXISTING));
  if (!src.ok()) {
    *err = LastError("CreateFileW", source);
    return false;
  }
  uint64_t size = 0;
  if (!FileSize(src.h, source, &size, err)) return false;
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(src.h, &info)) {
    *err = LastError("GetFileInformationByHandle", source);
    return false;
  }
  bool ok = false;
  {
    Handle dst(OpenPath(target, GENERIC_READ | GENERIC_WRITE | DELETE, 0, CREATE_NEW));
    if (!dst.ok()) {
      *err = LastError("CreateFileW", target);
      return false;
    }
    ok = ((info.dwFileAttributes & FILE_ATTRIBUTE_SPARSE_FILE) == 0 ||
          SetSparse(dst.h, target, err)) &&
         SetEndOfFile(dst.h, target, size, err);
    const uint64_t cluster = ClusterBytes(target);
    for (uint64_t offset = 0; ok && offset < size; offset += kCloneChunkBytes) {
      uint64_t length = std::min(kCloneChunkBytes, size - offset);
      length = (length + cluster - 1) / cluster * cluster;  // the last cluster may pass the end
      DuplicateExtents request;
      request.fileHandle = src.h;
      request.sourceFileOffset.QuadPart = static_cast<LONGLONG>(offset);
      request.targetFileOffset.QuadPart = static_cast<LONGLONG>(offset);
      request.byteCount.QuadPart = static_cast<LONGLONG>(length);
      DWORD returned = 0;
      if (!DeviceIoControl(dst.h, FSCTL_DUPLICATE_EXTENTS_TO_FILE, &request, sizeof request,
                           nullptr, 0, &returned, nullptr)) {
        *err = LastError("DeviceIoControl(FSCTL_DUPLICATE_EXTENTS_TO_FILE)", target);
        ok = false;
      }
    }
    if (ok && !FlushFileBuffers(dst.h)) {
      *err = LastError("FlushFileBuffers", target);
      ok = false;
    }
  }
  if (!ok) DeleteFileW(Widen(target).c_str());
  return ok;
}

bool CopyMetadata(const std::string& from, const std::string& to, SysError* err) {
  if (HasAlternateStreams(from)) {
    *err = MakeSysError(ERROR_NOT_SUPPORTED, "FindFirstStreamW", from);
    err->message = "the file has alternate data streams, which a clone would not keep";
    return false;
  }
  Handle src(OpenPath(from, GENERIC_READ | READ_CONTROL, FILE_SHARE_READ | FILE_SHARE_WRITE,
                      OPEN_EXISTING));
  if (!src.ok()) {
    *err = LastError("CreateFileW", from);
    return false;
  }
  Handle dst(OpenPath(to, GENERIC_READ | FILE_WRITE_ATTRIBUTES | WRITE_DAC, 0, OPEN_EXISTING));
  if (!dst.ok()) {
    *err = LastError("CreateFileW", to);
    return false;
  }
  const SECURITY_INFORMATION which = DACL_SECURITY_INFORMATION;
  DWORD needed = 0;
  GetKernelObjectSecurity(src.h, which, nullptr, 0, &needed);
  std::vector<unsigned char> descriptor(needed ? needed : 1);
  if (!GetKernelObjectSecurity(src.h, which, descriptor.data(),
                               static_cast<DWORD>(descriptor.size()), &needed)) {
    *err = LastError("GetKernelObjectSecurity", from);
    return false;
  }
  if (!SetKernelObjectSecurity(dst.h, which, descriptor.data())) {
    *err = LastError("SetKernelObjectSecurity", to);
    return false;
  }
  FILE_BASIC_INFO basic;
  if (!GetFileInformationByHandleEx(src.h, FileBasicInfo, &basic, sizeof basic)) {
    *err = LastError("GetFileInformationByHandleEx", from);
    return false;
  }
  basic.ChangeTime.QuadPart = 0;  // 0 = leave as is
  if (!SetFileInformationByHandle(dst.h, FileBasicInfo, &basic, sizeof basic)) {
    *err = LastError("SetFileInformationByHandle", to);
    return false;
  }
  return true;
}

bool SetTimes(const std::string& path, int64_t atimeNs, int64_t mtimeNs, SysError* err) {
  Handle file(OpenPath(path, FILE_WRITE_ATTRIBUTES,
                       FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, OPEN_EXISTING));
  if (!file.ok()) {
    *err = LastError("CreateFileW", path);
    return false;
  }
  const FILETIME access = ToFileTime(atimeNs), write = ToFileTime(mtimeNs);
  if (!SetFileTime(file.h, nullptr, &access, &write)) {
    *err = LastError("SetFileTime", path);
    return false;
  }
  return true;
}

bool QueryDataRanges(const std::string& path, DataMap* out, SysError* err) {
  Handle file(OpenPath(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, OPEN_EXISTING));
  if (!file.ok()) {
    *err = LastError("CreateFileW", path);
    return false;
  }
  uint64_t size = 0;
  if (!FileSize(file.h, path, &size, err)) return false;
  out->logicalBytes = size;
  out->allocatedBytes = AllocatedBytes(path);
  out->data.clear();
  FILE_ALLOCATED_RANGE_BUFFER query;
  query.FileOffset.QuadPart = 0;
  query.Length.QuadPart = static_cast<LONGLONG>(size);
  std::vector<FILE_ALLOCATED_RANGE_BUFFER> ranges(64);
  while (query.Length.QuadPart > 0) {
    DWORD returned = 0;
    BOOL done =
        DeviceIoControl(file.h, FSCTL_QUERY_ALLOCATED_RANGES, &query, sizeof query, ranges.data(),
                        static_cast<DWORD>(ranges.size() * sizeof ranges[0]), &returned, nullptr);
    if (!done && GetLastError() != ERROR_MORE_DATA) {
      // The file system has no sparse files (FAT, exFAT), or its driver does not answer (some
      // network redirectors; Wine): report the file as all data, as the contract says.
      const DWORD error = GetLastError();
      if (error == ERROR_INVALID_FUNCTION || error == ERROR_NOT_SUPPORTED) {
        out->holesSupported = false;
        out->data.assign(1, ByteRange{0, size});
        return true;
      }
      *err = LastError("DeviceIoControl(FSCTL_QUERY_ALLOCATED_RANGES)", path);
      return false;
    }
    const size_t count = returned / sizeof ranges[0];
    for (size_t i = 0; i < count; ++i) {
      out->data.push_back(ByteRange{static_cast<uint64_t>(ranges[i].FileOffset.QuadPart),
                                    static_cast<uint64_t>(ranges[i].Length.QuadPart)});
    }
    if (done || count == 0) break;
    const FILE_ALLOCATED_RANGE_BUFFER& last = ranges[count - 1];
    const LONGLONG next = last.FileOffset.QuadPart + last.Length.QuadPart;
    query.Length.QuadPart = static_cast<LONGLONG>(size) - next;
    query.FileOffset.QuadPart = next;
  }
  return true;
}

bool FlushVolume(const std::string&, SysError*) {
  return true;  // flushing a whole volume needs administrator rights; free space is read as is
}

namespace {

// The user's file on a handle shared with nobody: while it is open no other program can open the
// file at all, so nothing can write between the read that found zeros and the punch.
class UnsharedFile : public GuardedFile {
 public:
  UnsharedFile(HANDLE h, const std::string& path) : h_(h), path_(path) {}
  bool GuardHeld() override { return true; }
  bool ReadAt(uint64_t offset, char* buffer, size_t bytes, size_t* got, SysError* err) override {
    *got = 0;
    while (*got < bytes) {
      OVERLAPPED at;
      std::memset(&at, 0, sizeof at);
      const uint64_t position = offset + *got;
      at.Offset = static_cast<DWORD>(position);
      at.OffsetHigh = static_cast<DWORD>(position >> 32);
      DWORD read = 0;
      const DWORD want = static_cast<DWORD>(std::min<size_t>(bytes - *got, 1u << 30));
      if (!ReadFile(h_, buffer + *got, want, &read, &at)) {
        if (GetLastError() == ERROR_HANDLE_EOF) break;
        *err = LastError("ReadFile", path_);
        return false;
      }
      if (read == 0) break;
      *got += read;
    }
    return true;
  }
  bool Punch(uint64_t offset, uint64_t length, SysError* err) override {
    // Zeroed ranges are deallocated only in a sparse file; set it at the first punch, not before.
    if (!sparse_ && !SetSparse(h_, path_, err)) return false;
    sparse_ = true;
    FILE_ZERO_DATA_INFORMATION zero;
    zero.FileOffset.QuadPart = static_cast<LONGLONG>(offset);
    zero.BeyondFinalZero.QuadPart = static_cast<LONGLONG>(offset + length);
    DWORD returned = 0;
    if (!DeviceIoControl(h_, FSCTL_SET_ZERO_DATA, &zero, sizeof zero, nullptr, 0, &returned,
                         nullptr)) {
      *err = LastError("DeviceIoControl(FSCTL_SET_ZERO_DATA)", path_);
      return false;
    }
    return true;
  }

 private:
  HANDLE h_;
  const std::string& path_;
  bool sparse_ = false;
};

}  // namespace

bool PunchZeroBlocks(const std::string& path, const std::vector<ByteRange>& ranges,
                     uint64_t blockBytes, PunchResult* out, SysError* err) {
  Handle file(OpenPath(path, GENERIC_READ | GENERIC_WRITE, 0, OPEN_EXISTING));
  if (!file.ok()) {
    if (GetLastError() == ERROR_SHARING_VIOLATION) {
      out->outcome = PunchOutcome::kInUse;  // another program has it open
      return true;
    }
    *err = LastError("CreateFileW", path);
    return false;
  }
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(file.h, &info)) {
    *err = LastError("GetFileInformationByHandle", path);
    return false;
  }
  if (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) {
    *err = MakeSysError(ERROR_INVALID_PARAMETER, "CreateFileW", path);
    err->message = "not a regular file";
    return false;
  }
  // Times set to -1 on this handle: nothing done through it moves them (SetFileTime's own rule).
  FILETIME keep;
  keep.dwLowDateTime = keep.dwHighDateTime = 0xFFFFFFFF;
  if (!SetFileTime(file.h, nullptr, &keep, &keep)) {
    *err = LastError("SetFileTime", path);
    return false;
  }
  UnsharedFile held(file.h, path);
  const double unbounded = std::numeric_limits<double>::infinity();
  return PunchZeroChunks(held, ranges, blockBytes, unbounded, out, err);
}

bool CreateSparseFile(const std::string& path, uint64_t bytes, SysError* err) {
  bool ok = false;
  {
    Handle file(OpenPath(path, GENERIC_READ | GENERIC_WRITE, 0, CREATE_NEW));
    if (!file.ok()) {
      *err = LastError("CreateFileW", path);
      return false;
    }
    ok = SetSparse(file.h, path, err) && SetEndOfFile(file.h, path, bytes, err);
  }
  if (!ok) DeleteFileW(Widen(path).c_str());
  return ok;
}

}  // namespace plumb
