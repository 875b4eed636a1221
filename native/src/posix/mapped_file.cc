// MappedFile on POSIX: mmap, and madvise(MADV_DONTNEED) to forget. For a shared file mapping that
// only drops this process's page-table entries (Linux: at once; the pages stay in the page cache).
#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix/fd.h"

namespace plumb {

bool MappedFile::Open(const std::string& path) {
  Close();
  SysError ignored;
  const Fd fd(OpenChecked(path, O_RDONLY, PathKind::kFile, &ignored));
  if (fd.fd < 0) return false;
  struct stat st;
  if (fstat(fd.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void* map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd.fd, 0);
    if (map != MAP_FAILED) {
      data_ = static_cast<const uint8_t*>(map);
      size_ = static_cast<uint64_t>(st.st_size);
    }
  }
  return data_ != nullptr;
}

void MappedFile::Close() {
  if (data_) munmap(const_cast<uint8_t*>(data_), static_cast<size_t>(size_));
  data_ = nullptr;
  size_ = 0;
}

uint64_t MappedFile::PageBytes() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

void MappedFile::Release(uint64_t offset, uint64_t bytes) {
  madvise(const_cast<uint8_t*>(data_) + offset, static_cast<size_t>(bytes), MADV_DONTNEED);
}

}  // namespace plumb
