// ListFolder on Linux and macOS: opendir/readdir, then fstatat relative to the folder's descriptor
// (no path resolution per entry). Symbolic links and special files are told apart by d_type where
// the file system fills it in, without a stat.
#include "walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <vector>

namespace plumb {
namespace {

double Milliseconds(const struct timespec& t) {
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

#ifdef __APPLE__
const struct timespec& Mtime(const struct stat& st) { return st.st_mtimespec; }
const struct timespec& Ctime(const struct stat& st) { return st.st_ctimespec; }
#else
const struct timespec& Mtime(const struct stat& st) { return st.st_mtim; }
const struct timespec& Ctime(const struct stat& st) { return st.st_ctim; }
#endif

EntryKind KindOf(mode_t mode) {
  if (S_ISREG(mode)) return EntryKind::kFile;
  if (S_ISDIR(mode)) return EntryKind::kFolder;
  if (S_ISLNK(mode)) return EntryKind::kSymlink;
  return EntryKind::kSpecial;
}

void Fill(const struct stat& st, FolderEntry* entry) {
  entry->kind = KindOf(st.st_mode);
  entry->dev = static_cast<uint64_t>(st.st_dev);
  entry->ino = static_cast<uint64_t>(st.st_ino);
  entry->links = static_cast<uint64_t>(st.st_nlink);
  entry->size = static_cast<uint64_t>(st.st_size);
  entry->allocatedBytes = static_cast<uint64_t>(st.st_blocks) * 512;
  entry->mtimeMs = Milliseconds(Mtime(st));
  entry->ctimeMs = Milliseconds(Ctime(st));
}

}  // namespace

bool StatPath(const std::string& path, FolderEntry* out, SysError* err) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    *err = MakeSysError(errno, "lstat", path);
    return false;
  }
  Fill(st, out);
  return true;
}

std::string AbsolutePath(const std::string& path) {
  std::string joined = path;
  if (joined.empty() || joined[0] != '/') {
    std::vector<char> cwd(PATH_MAX);
    const std::string here = getcwd(cwd.data(), cwd.size()) ? cwd.data() : "/";
    joined = joined.empty() ? here : here + "/" + joined;
  }
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= joined.size()) {
    size_t end = joined.find('/', start);
    if (end == std::string::npos) end = joined.size();
    const std::string part = joined.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (const std::string& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

bool ListFolder(const std::string& dir, std::vector<FolderEntry>* out, SysError* err) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    *err = MakeSysError(errno, "open", dir);
    return false;
  }
  DIR* listing = fdopendir(fd);
  if (!listing) {
    *err = MakeSysError(errno, "fdopendir", dir);
    close(fd);
    return false;
  }
  for (;;) {
    errno = 0;
    const struct dirent* d = readdir(listing);
    if (!d) {
      if (errno != 0) {
        *err = MakeSysError(errno, "readdir", dir);
        closedir(listing);
        return false;
      }
      break;
    }
    if (d->d_name[0] == '.' &&
        (d->d_name[1] == '\0' || (d->d_name[1] == '.' && d->d_name[2] == '\0'))) {
      continue;
    }
    FolderEntry entry;
    entry.name = d->d_name;
    if (d->d_type == DT_LNK) {
      entry.kind = EntryKind::kSymlink;
    } else if (d->d_type == DT_FIFO || d->d_type == DT_SOCK || d->d_type == DT_CHR ||
               d->d_type == DT_BLK) {
      entry.kind = EntryKind::kSpecial;
    } else {
      struct stat st;
      if (fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) Fill(st, &entry);
    }
    out->push_back(std::move(entry));
  }
  closedir(listing);  // closes fd too
  return true;
}

}  // namespace plumb
