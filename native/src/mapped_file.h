// A file mapped read-only into memory, per OS (posix/mapped_file.cc, win/mapped_file.cc).
//
// Its pages are the system's file cache, not this process's: Forget takes a range back out of the
// process's resident memory (it is read again from the cache, or the disk, when next touched). A
// reader going through a large file once keeps only the part it is at resident, where a copy read
// into memory would hold it all (the hash cache of ten million files: 720 MB).
//
// The file must not shrink while it is mapped (a page past its new end cannot be read): map only
// files that are replaced by a rename, never rewritten in place.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace plumb {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }
  MappedFile& operator=(MappedFile&& other) noexcept {
    if (this != &other) {
      Close();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      mapping_ = std::exchange(other.mapping_, 0);
    }
    return *this;
  }
  ~MappedFile() { Close(); }

  // Maps the regular file at `path` whole; false when it is missing, empty, not a regular file or
  // cannot be mapped (then nothing is mapped).
  bool Open(const std::string& path);
  void Close();

  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  bool mapped() const { return data_ != nullptr; }

  // Takes the whole pages within [from, to) (byte offsets; `to` at or past the end: through the
  // last page) out of the process's resident memory.
  void Forget(uint64_t from, uint64_t to) {
    if (!data_) return;
    const uint64_t page = PageBytes();
    from = (from + page - 1) / page * page;
    to = to >= size_ ? (size_ + page - 1) / page * page : to / page * page;
    if (from < to) Release(from, to - from);
  }

 private:
  static uint64_t PageBytes();
  void Release(uint64_t offset, uint64_t bytes);  // whole pages
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  intptr_t mapping_ = 0;  // Windows: the file mapping's handle
};

}  // namespace plumb
