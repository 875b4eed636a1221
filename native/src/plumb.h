// The contract between the N-API bindings (napi/), the OS-blind engines (engine/, scan/) and the
// per-OS backends (posix/, linux/, darwin/, win/). Plain C++ structs; only napi/ touches N-API.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace plumb {

// A failed system call, carried from a backend (possibly on a worker thread) to JavaScript.
struct SysError {
  std::string code;     // errno-style name: "ENOENT", "EACCES", "ENOSPC", "EROFS", ...
  std::string syscall;  // the call that failed: "open", "statvfs", "CreateFileW", ...
  std::string path;     // the path it failed on, or empty
  std::string message;  // a sentence for people; the JS side prefixes nothing
  bool ok() const { return code.empty(); }
};

// What the OS says about the volume holding a path. std::nullopt means "the OS did not say".
struct VolumeFacts {
  std::string path;
  std::optional<std::string> fsType;
  std::optional<std::string> mountPoint;
  std::optional<std::string> device;
  std::optional<std::string> bus;     // "nvme", "usb", "sata", "thunderbolt", "virtio", ...
  std::optional<std::string> medium;  // "ssd" or "hdd"
  uint64_t totalBytes = 0;
  uint64_t freeBytes = 0;
  uint64_t availableBytes = 0;
  uint32_t blockSize = 0;
  std::optional<uint32_t> directIoAlignment;
  std::optional<bool> supportsClones;
  std::optional<bool> supportsSparse;
  std::optional<bool> rotational;
  std::optional<bool> internal;
  std::optional<bool> readOnly;
};

// Per-OS: fill `out` for the volume holding `path`; on failure fill `err` and return false.
bool QueryVolume(const std::string& path, VolumeFacts* out, SysError* err);

// Per-OS: the errno-style name and a sentence for an OS error number.
std::string ErrorCodeName(long osError);
std::string ErrorMessage(long osError);

// Convenience for backends: a SysError from an OS error number.
SysError MakeSysError(long osError, const char* syscall, const std::string& path);

// Per-OS: fopen for a regular file ("rb" or "wb"), that never waits on a FIFO or opens a
// device in its place (posix/fd.h; Windows: a file on a disk). Null when it cannot be opened.
FILE* OpenRegularFile(const std::string& path, const char* mode);

// Per-OS: a path as the backends hold it (the OS's bytes; on Windows WTF-8, engine/utf.h) as the
// UTF-16 string JavaScript holds, and back, without loss: a name that is not Unicode keeps its
// bytes (app/contract/path.ts says how they look in a string).
std::u16string PathToUtf16(const std::string& path);
std::string PathFromUtf16(const std::u16string& text);
// Whether PathToUtf16 reads `path` as plain UTF-8 does (most paths: then cheaper ways serve).
bool PathIsUtf8(const std::string& path);

// Per-OS: keeps this library loaded until the process ends. Node unloads an addon with the last
// environment that loaded it (a worker thread's, when it ends), but threads of a cancelled call
// may still be finishing a read in its code (engine/detached_pool.h).
void KeepLibraryLoaded();

// Per-OS: runs `work` on a new thread nobody joins; false when no thread could be started.
// Windows uses the system's own threads: mingw-w64's winpthreads (behind std::thread there)
// recycles a detached thread's record while that thread is still exiting, and the new thread it is
// handed to then never runs or has its handles closed (win/detached_thread.cc).
bool StartDetachedThread(std::function<void()> work);

}  // namespace plumb
