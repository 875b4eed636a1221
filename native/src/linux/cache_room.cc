// How much file content the page cache can keep for this process, on Linux: the lesser of the
// system's MemAvailable and its memory cgroup's room (cgroup v2 memory.max, or v1's hierarchical
// limit, less the memory that is not file cache), for ReadsWouldFloodCache (content_hash.h).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "content_hash.h"

namespace plumb {
namespace {

constexpr uint64_t kUnlimited = UINT64_MAX;
// cgroup v1 writes "no limit" as the largest page-aligned int64 (9223372036854771712).
constexpr uint64_t kV1NoLimit = uint64_t{1} << 62;

// The value after `key` on a line of `file` that starts with it ("MemAvailable:", "anon "), or
// false.
bool ReadKeyed(const std::string& file, const std::string& key, uint64_t* value) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    std::istringstream rest(line.substr(key.size()));
    return static_cast<bool>(rest >> *value);
  }
  return false;
}

// A file holding one number (memory.max, memory.current); false for "max" or when unreadable.
bool ReadNumber(const std::string& file, uint64_t* value) {
  std::ifstream in(file);
  return static_cast<bool>(in >> *value);
}

// This process's cgroup path for the v2 hierarchy ("0::/a/b") or the v1 memory controller
// ("4:memory:/a/b"), from /proc/self/cgroup.
bool CgroupPath(bool v2, std::string* path) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const size_t first = line.find(':');
    const size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    bool match = v2 ? controllers.empty() : false;
    if (!v2) {
      std::istringstream list(controllers);
      std::string name;
      while (std::getline(list, name, ',')) match = match || name == "memory";
    }
    if (match) {
      *path = line.substr(second + 1);
      return true;
    }
  }
  return false;
}

// Room under cgroup v2 limits: for this cgroup and each above it with a memory.max, that limit
// less what it holds apart from file cache (memory.current − memory.stat's file); the least.
uint64_t V2Room() {
  std::string path;
  if (!CgroupPath(true, &path)) return kUnlimited;
  uint64_t room = kUnlimited;
  for (std::string dir = "/sys/fs/cgroup" + path;;) {
    uint64_t max = 0;
    uint64_t current = 0;
    uint64_t file = 0;
    if (ReadNumber(dir + "/memory.max", &max) && ReadNumber(dir + "/memory.current", &current) &&
        ReadKeyed(dir + "/memory.stat", "file ", &file)) {
      const uint64_t held = current > file ? current - file : 0;
      room = std::min(room, max > held ? max - held : 0);
    }
    if (dir == "/sys/fs/cgroup") break;
    dir = dir.substr(0, dir.rfind('/'));
    if (dir.size() < std::string("/sys/fs/cgroup").size()) break;
  }
  return room;
}

// Room under the cgroup v1 memory controller: the limit in force (this group's or an ancestor's)
// less the group's memory other than file cache.
uint64_t V1Room() {
  std::string path;
  if (!CgroupPath(false, &path)) return kUnlimited;
  const std::string stat = "/sys/fs/cgroup/memory" + path + "/memory.stat";
  uint64_t limit = 0;
  uint64_t rss = 0;
  if (!ReadKeyed(stat, "hierarchical_memory_limit ", &limit) || limit >= kV1NoLimit)
    return kUnlimited;
  ReadKeyed(stat, "total_rss ", &rss);
  return limit > rss ? limit - rss : 0;
}

}  // namespace

bool ReadsWouldFloodCache(uint64_t bytes) {
  uint64_t availableKiB = 0;
  uint64_t room = kUnlimited;
  if (ReadKeyed("/proc/meminfo", "MemAvailable:", &availableKiB)) room = availableKiB * 1024;
  room = std::min({room, V2Room(), V1Room()});
  if (room == kUnlimited) return false;  // nothing known: read as always
  return bytes > room / 2;
}

}  // namespace plumb
