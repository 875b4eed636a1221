// What differs between Linux and macOS in uncached file I/O; posix/file.cc does the rest.
#pragma once

#include <cstdint>

namespace plumb {

// Extra open(2) flags that request direct I/O (O_DIRECT on Linux; 0 on macOS).
int DirectOpenFlags();
// Makes an open fd uncached where needed (macOS F_NOCACHE). False when direct I/O would only
// pretend here (a RAM-backed file system) or the file system refuses: the caller goes buffered.
bool MakeUncached(int fd);
// Turns direct I/O off on an open fd after the file system refused a transfer (EINVAL).
bool MakeBuffered(int fd);
// Offset/length alignment direct I/O needs on this fd, bytes.
uint32_t DirectIoAlignment(int fd);
// Data and the drive's write cache to stable storage; 0 or an errno, and the syscall's name.
int FlushToMedium(int fd, const char** syscall);
// Drops the file's cached pages (posix_fadvise DONTNEED; msync MS_INVALIDATE on macOS).
void DropCachedPages(int fd, uint64_t bytes);

}  // namespace plumb
