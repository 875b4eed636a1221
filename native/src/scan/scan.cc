// The space scan (see scan.h): walk, then narrow candidates step by step (size, head and tail
// digest, full digest), then ask the file system how each group's copies are stored.
//
// Orders are part of the answer and follow the rules the app has always used: folders are listed
// breadth first (256 at a time on a few threads, placed in order), files keep the order found,
// groups are split in first-seen order, and the finished groups are sorted by reclaimable bytes.
#include "scan/scan.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "scan/hash_cache.h"
#include "scan/pools.h"
#include "scan/sharing.h"
#include "space.h"
#include "walk.h"

namespace plumb {
namespace scan {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kFoldersPerBatch = 256;  // folders listed at once, on kListThreads threads
constexpr uint32_t kListThreads = 4;
// Files read at once. A solid-state disk serves many reads in parallel: a million small files
// read cold from this VM's SSD-backed disk hashed in 15.0-15.8 s on 4 threads, 10.9 on 8, 8.7-9.2
// on 16. A spinning disk seeks between files, so there a few readers keep each file sequential.
// Where the medium is unknown (a virtual or network disk, macOS, whose medium the app learns
// elsewhere) it is read as solid state.
constexpr uint32_t kHashThreads = 16;
constexpr uint32_t kHashThreadsSpinning = 4;
constexpr size_t kHashReadBytes = 256 * 1024;  // per read; the OS reads ahead of sequential reads
// A rescan looks its members up in the cache in at most this many batches (of at least
// kMinLookupBatch members, 16 bytes each): each batch walks the cache from its lowest inode again,
// mapping again the pages the last let go, so the passes must not grow with the tree. Ten million
// files' lookups took 10.2 to 11.4 s in 76 batches of 131,072, 6.2 to 6.3 s in 8.
constexpr size_t kLookupPasses = 8;
constexpr size_t kMinLookupBatch = 131072;
constexpr size_t kReadBatch = 131072;            // files handed to the readers at once (2 MB)
constexpr uint32_t kSharingThreads = 4;          // storage queries at once (metadata only)
constexpr size_t kSharingChunk = 4096;           // files whose storage facts are held at once
constexpr uint64_t kEdgeBytes = 4096;            // bytes from each end for the partial digest
constexpr uint64_t kSmallFileBytes = 64 * 1024;  // hashed whole at once: an edge key reads most
constexpr uint64_t kPageBytes = 4096;  // a page of the cache, for the bytes a scan brings in
constexpr uint64_t kSparseGapBytes = 64 * 1024;  // allocated this far below size: sparse
constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr auto kCancelPoll = std::chrono::milliseconds(50);
constexpr auto kPlacePoll = std::chrono::milliseconds(5);  // the walk places what was listed

// Temporary clones Plumb makes beside a file while replacing it (tempPrefix,
// app/core/space/journal.ts).
const char kTempPrefix[] = ".plumb-clone-";

const char kNoSharingNote[] =
    "This file system cannot share storage between files (no clones), so cloning frees nothing "
    "here.";
const char kCompressedNote[] =
    "Some copies are compressed by the file system; cloning them would lose that, so they are "
    "skipped.";

#ifdef _WIN32
constexpr char kSeparator = '\\';
#else
constexpr char kSeparator = '/';
#endif

bool StartsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

std::string Lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// Node's path.extname: from the last "." of the name, unless the name starts with it.
std::string Extension(const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  return name.substr(dot);
}

// macOS bundles that apps manage as one document; changing their insides is the app's business.
bool IsPackage(const std::string& name) {
  static const char* const kExtensions[] = {
      ".app",       ".bundle",        ".framework",     ".plugin",       ".kext",
      ".appex",     ".xpc",           ".photoslibrary", ".photolibrary", ".musiclibrary",
      ".tvlibrary", ".imovielibrary", ".aplibrary",     ".fcpbundle",    ".logicx",
      ".band",      ".xcarchive",     ".rtfd",          ".pages",        ".numbers",
      ".key",       ".sparsebundle"};
  const std::string ext = Lower(Extension(name));
  if (ext.empty()) return false;
  for (const char* known : kExtensions)
    if (ext == known) return true;
  return false;
}

// Folders a sync client watches: a changed file there is uploaded again (or a placeholder fetched).
bool IsCloudFolder(const std::string& name) {
  static const char* const kNames[] = {
      "Dropbox", "OneDrive", "Google Drive", "iCloud Drive", "Mobile Documents", "CloudStorage",
      "Box",     "Box Sync", "pCloud Drive", "MEGA",         "Nextcloud",        "ownCloud"};
  for (const char* known : kNames)
    if (name == known) return true;
  return StartsWith(name, "OneDrive - ");
}

// The skip rules, name by name in tests/native/scan-rules.test.ts. The sparse-file listing walks
// with all of them off but the temporary clones.
bool IsSkippedFolder(const std::string& name, const Settings& s) {
  if (StartsWith(name, kTempPrefix)) return true;
  if (!s.includeHidden && StartsWith(name, ".")) return true;
  if (s.skipPackages && (name == "Library" || IsPackage(name))) return true;
  return s.skipCloudFolders && IsCloudFolder(name);
}

bool IsSkippedFile(const std::string& name, const Settings& s) {
  if (StartsWith(name, kTempPrefix)) return true;
  return !s.includeHidden && StartsWith(name, ".");
}

// Made in one allocation: a rescan of a million files makes 600,000 paths for its groups.
std::string EntryPath(const std::string& dir, std::string_view name) {
  std::string path;
  path.reserve(dir.size() + 1 + name.size());
  path.append(dir);
  if (dir.empty() || dir.back() != kSeparator) path.push_back(kSeparator);
  path.append(name);
  return path;
}

SysError Cancelled() { return SysError{"ECANCELED", "scanFolder", "", "The scan was cancelled."}; }

// Names of the files kept by the walk, NUL-terminated, in 64 KiB blocks that never move (a
// growing string would copy itself, briefly holding twice the names). A name is known by 4 bytes
// (its block and its place there) rather than an 8-byte pointer: 65,536 blocks hold 4 GiB of
// names, 300 million at 13 bytes (files are counted in 32 bits too). A name never passes 64 KiB
// (file systems stop at 255 units).
class NameArena {
 public:
  uint32_t Add(const std::string& name) {
    const size_t need = name.size() + 1;
    if (blocks_.empty() || used_ + need > kBlockBytes) {
      blocks_.emplace_back(new char[kBlockBytes]);
      used_ = 0;
    }
    std::memcpy(blocks_.back().get() + used_, name.c_str(), need);
    const uint32_t handle = static_cast<uint32_t>(((blocks_.size() - 1) << 16) | used_);
    used_ += need;
    return handle;
  }
  const char* Of(uint32_t handle) const { return blocks_[handle >> 16].get() + (handle & 0xffff); }

 private:
  static constexpr size_t kBlockBytes = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t used_ = 0;
};

// A growing array kept in blocks of 65,536 items, which never move once written (a deque's do
// not either), where item i is one look into a short list of blocks away. A deque's blocks are
// 512 bytes: ten million files' list of them is 6.7 MB, a cache miss of its own before each
// record when the groups are written out in their order, which is random to the walk's.
template <typename T>
class BlockArray {
 public:
  size_t size() const { return size_; }
  const T& operator[](size_t i) const { return blocks_[i >> kShift][i & kMask]; }
  void push_back(const T& item) {
    if ((size_ & kMask) == 0) blocks_.emplace_back(new T[kBlockItems]);
    blocks_.back()[size_ & kMask] = item;
    ++size_;
  }

 private:
  static constexpr size_t kShift = 16;
  static constexpr size_t kBlockItems = size_t{1} << kShift;
  static constexpr size_t kMask = kBlockItems - 1;
  std::vector<std::unique_ptr<T[]>> blocks_;
  size_t size_ = 0;
};

// Asks the CPU to bring the memory at `p` into its cache, without waiting for it.
inline void Prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// Prefetch for each cache line of [from, to).
template <typename T>
void PrefetchRange(const T* from, const T* to) {
  constexpr uintptr_t kLine = 64;
  const uintptr_t end = reinterpret_cast<uintptr_t>(to);
  for (uintptr_t at = reinterpret_cast<uintptr_t>(from) & ~(kLine - 1); at < end; at += kLine)
    Prefetch(reinterpret_cast<const void*>(at));
}

// A file kept by the walk: 40 bytes, its path built only when needed (a path string would be
// three times that), in blocks that never copy what they hold. Its count of names is kept aside
// (WalkTable::links), for the few files that have more than one.
struct Kept {
  uint32_t dir;   // index into WalkTable::dirs
  uint32_t name;  // in WalkTable::names
  uint64_t size;
  uint64_t ino;
  double mtimeMs;
  double ctimeMs;
};
static_assert(sizeof(Kept) == 40, "ten million files take 400 MB");

// What the walk found. Complete once the walk ends, then only read (by the pools' threads too,
// which share it: after a cancel they may outlive the scan).
struct WalkTable {
  std::deque<std::string> dirs;
  NameArena names;
  BlockArray<Kept> files;
  std::unordered_map<uint32_t, uint32_t> links;  // files seen under more than one name: how many

  std::string PathOf(uint32_t file) const {
    const Kept& k = files[file];
    return EntryPath(dirs[k.dir], names.Of(k.name));
  }
  uint32_t LinksOf(uint32_t file) const {
    const auto found = links.find(file);
    return found == links.end() ? 1 : found->second;
  }
};
using WalkTablePtr = std::shared_ptr<const WalkTable>;

// Paths of some of the walk's files, for a pool.
class WalkPaths : public PathSource {
 public:
  WalkPaths(WalkTablePtr table, std::vector<uint32_t> files)
      : table_(std::move(table)), files_(std::move(files)) {}
  size_t size() const override { return files_.size(); }
  std::string Path(size_t index) const override { return table_->PathOf(files_[index]); }

 private:
  const WalkTablePtr table_;
  const std::vector<uint32_t> files_;
};

// Candidate groups, flat: group g is members[starts[g]] ... members[starts[g + 1] - 1], each an
// index into WalkTable::files.
struct Groups {
  std::vector<uint32_t> members;
  std::vector<size_t> starts{0};

  size_t count() const { return starts.size() - 1; }
  size_t begin(size_t g) const { return starts[g]; }
  size_t end(size_t g) const { return starts[g + 1]; }
  size_t size(size_t g) const { return starts[g + 1] - starts[g]; }
  void Close() { starts.push_back(members.size()); }  // the members added since form a group
};

// Lists a batch of folders on a few threads; Run returns false at once when cancelled (a listing
// in flight finishes in the background, owning the batch jointly with the caller).
class ListingPool : public DetachedPool {
 public:
  struct Listing {
    std::vector<FolderEntry> entries;
    SysError err;
    bool ok = false;
  };
  ListingPool(std::vector<std::string> dirs, CancelPtr cancel)
      : DetachedPool(dirs.size(), std::move(cancel)),
        dirs_(std::move(dirs)),
        out_(dirs_.size()),
        done_(new std::atomic<bool>[dirs_.size()]()) {}
  std::vector<Listing>& listings() { return out_; }
  // Whether listing `index` is complete (its entries may then be read while others are listed).
  bool Done(size_t index) const { return done_[index].load(std::memory_order_acquire); }

 private:
  void Process(size_t index) override {
    out_[index].ok = ListFolder(dirs_[index], &out_[index].entries, &out_[index].err);
    done_[index].store(true, std::memory_order_release);
  }
  const std::vector<std::string> dirs_;
  std::vector<Listing> out_;
  const std::unique_ptr<std::atomic<bool>[]> done_;
};

// std::stable_sort, but by insertion (as stable, and with no buffer to borrow) for the few items
// of most groups: a rescan of a million files sorts 300,000 groups of two, twice.
template <typename It, typename Less>
void StableSortFew(It first, It last, Less less) {
  if (last - first > 16) {
    std::stable_sort(first, last, less);
    return;
  }
  for (It i = first + (first == last ? 0 : 1); i < last; ++i) {
    auto item = std::move(*i);
    It at = i;
    for (; at > first && less(item, *(at - 1)); --at) *at = std::move(*(at - 1));
    *at = std::move(item);
  }
}

// The first 16 hex digits of a group's digest, all its id takes: 16 bytes a group, where the
// whole digest as a string took 80 (30 MB at a million files, 3 million groups at ten million).
struct DigestStart {
  char hex[16];
};

DigestStart DigestStartOf(const uint8_t* digest) {
  static const char kDigits[] = "0123456789abcdef";
  DigestStart out;
  for (size_t i = 0; i < sizeof out.hex / 2; ++i) {
    out.hex[i * 2] = kDigits[digest[i] >> 4];
    out.hex[i * 2 + 1] = kDigits[digest[i] & 15];
  }
  return out;
}

// What the sharing stage found for a group, compact (its files are the members of the described
// Groups, with their own figures in DescribedGroups): 48 bytes, where a Group with its files and
// their paths took about 170 bytes and 136 more a file.
struct Described {
  uint64_t sharedBytes;       // when hasShared
  uint64_t reclaimableBytes;  // when hasReclaimable
  const char* note;           // a fixed sentence, or null
  uint32_t keeperIndex;
  bool hasShared;
  bool hasReclaimable;
  DigestStart digest;
};

// A member's optional figures, compact: reclaimable bytes (kUnknown: null) and already a clone.
constexpr uint64_t kUnknown = UINT64_MAX;
constexpr uint8_t kCloneUnknown = 0, kCloneNo = 1, kCloneYes = 2;

// The groups of a result, made when asked for (GroupList) from the walk's table, the described
// groups and their members' figures; `order` is the result's order (largest reclaimable first).
class DescribedGroups : public GroupList::Source {
 public:
  DescribedGroups(WalkTablePtr table, Groups groups)
      : table_(std::move(table)), groups_(std::move(groups)) {
    described_.reserve(groups_.count());
    memberReclaimable_.reserve(groups_.members.size());
    memberClone_.reserve(groups_.members.size());
  }

  size_t size() const override { return order_.size(); }

  // The bytes of group g's copies beyond one (what removing them all would free, nominally).
  uint64_t Nominal(size_t g) const {
    return table_->files[groups_.members[groups_.begin(g)]].size * (groups_.size(g) - 1);
  }

  Group Make(size_t index) const override {
    const WalkTable& table = *table_;
    const size_t g = order_[index];
    const Described& d = described_[g];
    const size_t first = groups_.begin(g);
    const size_t count = groups_.size(g);
    const uint64_t size = table.files[groups_.members[first]].size;
    Group group;
    group.id = std::to_string(size) + "-";
    group.id.append(d.digest.hex, sizeof d.digest.hex);
    group.size = size;
    group.nominalBytes = Nominal(g);
    if (d.hasShared) group.sharedBytes = d.sharedBytes;
    if (d.hasReclaimable) group.reclaimableBytes = d.reclaimableBytes;
    group.note = d.note;
    group.files.reserve(count);
    for (size_t i = first; i < first + count; ++i) {
      const uint32_t file = groups_.members[i];
      const Kept& k = table.files[file];
      std::optional<uint64_t> reclaimable;
      if (memberReclaimable_[i] != kUnknown) reclaimable = memberReclaimable_[i];
      std::optional<bool> clone;
      if (memberClone_[i] != kCloneUnknown) clone = memberClone_[i] == kCloneYes;
      group.files.push_back(GroupFile{table.PathOf(file), k.size, k.ino, k.mtimeMs, k.ctimeMs,
                                      table.LinksOf(file), clone, reclaimable});
    }
    group.keeperIndex = d.keeperIndex;
    return group;
  }

  // Making a group reads memory in four places, each found through the one before and each, as
  // the groups are ordered, far from the last group's: where the group's members start, the
  // members, their records, and their names. When they are made in order, each of the groups
  // ahead is taken one of those steps further every time a group is made, a few groups apart, so
  // the memory a step reads has been fetched by the one before it (a rescan of ten million files
  // waited on memory for more than half of writing out its groups).
  void MakingNext(size_t index) const override {
    constexpr size_t kGroupsApart = 4;
    constexpr size_t kMembersAhead = 64;  // of a group (a larger one waits for the rest)
    const WalkTable& table = *table_;
    const auto groupAhead = [&](size_t steps, size_t* g) {
      const size_t ahead = index + steps * kGroupsApart;
      if (ahead >= order_.size()) return false;
      *g = order_[ahead];
      return true;
    };
    const auto members = [&](size_t g) {
      const size_t first = groups_.begin(g);
      return std::pair{first, std::min(groups_.end(g), first + kMembersAhead)};
    };
    size_t g;
    if (groupAhead(4, &g)) {
      Prefetch(&groups_.starts[g]);
      Prefetch(&described_[g]);
    }
    if (groupAhead(3, &g)) {
      const auto [first, end] = members(g);
      PrefetchRange(groups_.members.data() + first, groups_.members.data() + end);
      PrefetchRange(memberReclaimable_.data() + first, memberReclaimable_.data() + end);
      PrefetchRange(memberClone_.data() + first, memberClone_.data() + end);
    }
    if (groupAhead(2, &g)) {
      const auto [first, end] = members(g);
      for (size_t i = first; i < end; ++i) Prefetch(&table.files[groups_.members[i]]);
    }
    if (groupAhead(1, &g)) {
      const auto [first, end] = members(g);
      for (size_t i = first; i < end; ++i) {
        const Kept& k = table.files[groups_.members[i]];
        Prefetch(table.names.Of(k.name));
        Prefetch(&table.dirs[k.dir]);
      }
    }
  }

  std::vector<const char*> Notes() const override {
    std::vector<const char*> notes;
    for (const Described& d : described_)
      if (d.note && std::find(notes.begin(), notes.end(), d.note) == notes.end())
        notes.push_back(d.note);
    return notes;
  }

  const Groups& groups() const { return groups_; }
  const std::vector<Described>& described() const { return described_; }

  // The next group's facts (groups are described in their order), its members' figures in order.
  void Add(const Described& d, const GroupSharing& sharing) {
    described_.push_back(d);
    for (const std::optional<uint64_t>& r : sharing.memberReclaimable)
      memberReclaimable_.push_back(r ? *r : kUnknown);
    for (const std::optional<bool>& c : sharing.memberAlreadyClone)
      memberClone_.push_back(c ? (*c ? kCloneYes : kCloneNo) : kCloneUnknown);
  }

  // Puts the groups in the result's order, stably: largest reclaimable first; groups whose
  // savings are unknown after, by nominal size. The figures compared are copied into one array
  // (24 bytes a group) and sorted there with the position as the last key (as stable as
  // std::stable_sort, with no buffer to borrow).
  void Sort() {
    struct SortKey {
      uint64_t reclaimable;  // 0 when unknown
      uint64_t nominal;
      uint32_t unknown;  // 1 when the reclaimable bytes are unknown: after every known one
      uint32_t index;
    };
    std::vector<SortKey> keys(described_.size());
    for (uint32_t i = 0; i < keys.size(); ++i) {
      const Described& d = described_[i];
      keys[i] = {d.hasReclaimable ? d.reclaimableBytes : 0, Nominal(i), d.hasReclaimable ? 0u : 1u,
                 i};
    }
    std::sort(keys.begin(), keys.end(), [](const SortKey& a, const SortKey& b) {
      if (a.unknown != b.unknown) return a.unknown < b.unknown;
      if (a.reclaimable != b.reclaimable) return a.reclaimable > b.reclaimable;
      if (a.nominal != b.nominal) return a.nominal > b.nominal;
      return a.index < b.index;
    });
    order_.resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) order_[i] = keys[i].index;
  }

 private:
  const WalkTablePtr table_;
  const Groups groups_;
  std::vector<Described> described_;
  std::vector<uint64_t> memberReclaimable_;  // per member of groups_
  std::vector<uint8_t> memberClone_;         // per member of groups_
  std::vector<uint32_t> order_;
};

class Scanner {
 public:
  Scanner(const Settings& settings, const CancelPtr& cancel, const ProgressFn& progress)
      : settings_(settings), cancel_(cancel), progressFn_(progress), started_(Clock::now()) {
    state_.scanId = settings.scanId;
    if (!cancel_) cancel_ = std::make_shared<CancelFlag>();
  }

  bool Run(Result* out, SysError* err);

 private:
  bool cancelled() const { return cancel_->cancelled.load(); }
  double SecondsSince(Clock::time_point t) const {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  void Emit(bool force);
  void SetPhase(Phase phase);

  bool Walk(SysError* err);
  // Places the entries of listing `i` of the walk's folders; false (with `err`) when the folder
  // asked for cannot be read.
  bool PlaceListing(size_t i, ListingPool::Listing* listing, SysError* err);
  void Place(uint32_t dir, FolderEntry& entry);
  Groups SameSizeGroups() const;
  // Splits groups by content digest (edgeBytes from each end, or whole files when 0) into
  // `refined`, sub-groups in first-seen order, members in order; members that cannot be read are
  // dropped and counted. `digests` gets the start of each kept group's digest (the group's id).
  // Holds 21 bytes a member of `groups` while it reads, 17 while it splits.
  bool Refine(const Groups& groups, uint64_t edgeBytes, bool reportBytes, Groups* refined,
              std::vector<DigestStart>* digests, SysError* err);
  bool Describe(Groups groups, const std::vector<DigestStart>& digests, Result* out, SysError* err);
  void DescribeGroup(const Groups& groups, size_t g, const DigestStart& digest,
                     std::optional<bool> supported, const SharingAnswers* answers,
                     size_t firstAnswer, DescribedGroups* into) const;

  const Settings& settings_;
  CancelPtr cancel_;
  const ProgressFn& progressFn_;
  const Clock::time_point started_;
  Progress state_;
  Clock::time_point lastEmit_{};
  Clock::time_point stageStarted_ = started_;
  Clock::time_point hashStarted_{};
  StageSeconds stages_;

  std::string root_;
  uint64_t rootDev_ = 0;
  std::shared_ptr<WalkTable> table_ = std::make_shared<WalkTable>();
  // Files with more than one name: the index of the kept one, -1 when not kept (too small).
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, int64_t>> linked_;
  Skips skipped_;
  SparseSummary sparse_;
  std::vector<std::string> sparsePaths_;
  std::vector<std::string> largePaths_;
  uint64_t unreadableContent_ = 0;
  HashCache cache_;
  uint64_t filesRead_ = 0;
  uint64_t bytesRead_ = 0;
  bool dropPages_ = false;  // content is read leaving the page cache alone (ReadsWouldFloodCache)
  std::optional<std::string> fsType_;  // the root volume's, asked once the walk is done
  uint32_t hashThreads_ = kHashThreads;
};

void Scanner::Emit(bool force) {
  if (!progressFn_) return;
  const Clock::time_point now = Clock::now();
  if (!force && now - lastEmit_ < kProgressInterval) return;
  lastEmit_ = now;
  state_.seconds = SecondsSince(started_);
  if (state_.phase == Phase::kHash && state_.bytesHashed > 0) {
    const double rate = static_cast<double>(state_.bytesHashed) /
                        std::chrono::duration<double>(now - hashStarted_).count();
    state_.secondsLeft =
        std::max(0.0, static_cast<double>(state_.bytesToHash - state_.bytesHashed) / rate);
  }
  progressFn_(state_);
}

void Scanner::SetPhase(Phase phase) {
  const Clock::time_point now = Clock::now();
  const double spent = std::chrono::duration<double>(now - stageStarted_).count();
  switch (state_.phase) {
    case Phase::kWalk: stages_.walk += spent; break;
    case Phase::kCompare: stages_.compare += spent; break;
    case Phase::kHash: stages_.hash += spent; break;
    case Phase::kSharing: stages_.sharing += spent; break;
    case Phase::kDone: break;
  }
  stageStarted_ = now;
  state_.phase = phase;
  Emit(true);
}

void Scanner::Place(uint32_t dir, FolderEntry& entry) {
  switch (entry.kind) {
    case EntryKind::kSymlink: skipped_.symlinks += 1; return;
    case EntryKind::kUnreadable: skipped_.unreadable += 1; return;
    case EntryKind::kSpecial: skipped_.special += 1; return;
    case EntryKind::kFolder:
    case EntryKind::kFile: break;
  }
  if (entry.dev != rootDev_) {
    skipped_.otherVolumes += 1;
    return;
  }
  WalkTable& table = *table_;
  if (entry.kind == EntryKind::kFolder) {
    table.dirs.push_back(EntryPath(table.dirs[dir], entry.name));
    return;
  }
  if (entry.links > 1) {
    auto& byIno = linked_[entry.dev];
    auto found = byIno.find(entry.ino);
    if (found != byIno.end()) {
      if (found->second >= 0) {
        auto [count, added] = table.links.emplace(static_cast<uint32_t>(found->second), 1);
        count->second += 1;
      }
      skipped_.extraHardLinks += 1;
      return;
    }
    byIno.emplace(entry.ino,
                  entry.size < settings_.minBytes ? -1 : static_cast<int64_t>(table.files.size()));
  }
  state_.files += 1;
  state_.bytes += entry.size;
  if (entry.size > entry.allocatedBytes && entry.size - entry.allocatedBytes >= kSparseGapBytes) {
    sparse_.files += 1;
    sparse_.logicalBytes += entry.size;
    sparse_.allocatedBytes += entry.allocatedBytes;
    if (settings_.sparsePaths) sparsePaths_.push_back(EntryPath(table.dirs[dir], entry.name));
  } else if (settings_.largePaths > 0 && entry.size >= settings_.largePaths) {
    largePaths_.push_back(EntryPath(table.dirs[dir], entry.name));
  }
  if (entry.size < settings_.minBytes) return;
  table.files.push_back(
      Kept{dir, table.names.Add(entry.name), entry.size, entry.ino, entry.mtimeMs, entry.ctimeMs});
}

bool Scanner::Walk(SysError* err) {
  root_ = AbsolutePath(settings_.path);
  FolderEntry top;
  if (!StatPath(root_, &top, err)) {
    err->message = "Cannot open " + root_ + ": " + err->message;
    return false;
  }
  if (top.kind != EntryKind::kFolder) {
    *err = SysError{"ENOTDIR", "scanFolder", root_,
                    root_ + " is not a folder (symbolic links are not followed)."};
    return false;
  }
  rootDev_ = top.dev;
  std::deque<std::string>& dirs = table_->dirs;
  dirs.push_back(root_);
  // Folders are listed breadth first: those found are appended to `dirs` and listed in later
  // batches, in the order found.
  for (size_t next = 0; next < dirs.size();) {
    if (cancelled()) {
      *err = Cancelled();
      return false;
    }
    const size_t end = std::min(dirs.size(), next + kFoldersPerBatch);
    std::vector<std::string> batch(dirs.begin() + static_cast<ptrdiff_t>(next),
                                   dirs.begin() + static_cast<ptrdiff_t>(end));
    auto pool = std::make_shared<ListingPool>(std::move(batch), cancel_);
    // Each listing is placed, in order, as soon as it and those before it are in, while the pool
    // lists the rest: placing (this thread's work) and listing (the kernel's) overlap.
    size_t placed = next;
    bool rootUnreadable = false;
    const auto placeReady = [&] {
      for (; placed < end && !rootUnreadable && pool->Done(placed - next); ++placed)
        rootUnreadable = !PlaceListing(placed, &pool->listings()[placed - next], err);
    };
    if (!pool->Run(kListThreads, kPlacePoll, placeReady)) {
      *err = Cancelled();
      return false;
    }
    placeReady();
    if (rootUnreadable) return false;
    next = end;
  }
  linked_ = {};
  return true;
}

bool Scanner::PlaceListing(size_t i, ListingPool::Listing* from, SysError* err) {
  ListingPool::Listing& listing = *from;
  if (!listing.ok && i == 0) {
    // The folder asked for cannot be listed: that is a failure, not a scan of 0 files.
    *err = listing.err;
    err->message = "Cannot read " + root_ + ": " + err->message;
    return false;
  }
  if (!listing.ok) {
    skipped_.unreadable += 1;
    return true;
  }
  for (FolderEntry& entry : listing.entries) {
    if (entry.kind == EntryKind::kSymlink) {
      skipped_.symlinks += 1;
      continue;
    }
    const bool excluded = entry.kind == EntryKind::kFolder ? IsSkippedFolder(entry.name, settings_)
                                                           : IsSkippedFile(entry.name, settings_);
    if (excluded) {
      skipped_.excluded += 1;
      continue;
    }
    Place(static_cast<uint32_t>(i), entry);
  }
  listing.entries = {};
  Emit(false);
  return true;
}

// Files whose size another kept file has, grouped by size in first-seen order, members in order.
// By sorting (size, position) pairs (12-16 bytes a file, let go before returning) rather than
// counting sizes in a hash map (about 40); the pairs sort in one array, where positions compared
// through the walk's table cost a rescan of a million files 0.3 s.
Groups Scanner::SameSizeGroups() const {
  const BlockArray<Kept>& files = table_->files;
  std::vector<std::pair<uint64_t, uint32_t>> order(files.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = {files[i].size, i};
  std::sort(order.begin(), order.end());
  // Runs of equal sizes (each in found order), then the runs in order of their first file.
  std::vector<std::pair<size_t, size_t>> runs;  // [start, end) in `order`
  for (size_t start = 0, end = 0; start < order.size(); start = end) {
    end = start + 1;
    while (end < order.size() && order[end].first == order[start].first) ++end;
    if (end - start > 1) runs.emplace_back(start, end);
  }
  std::sort(runs.begin(), runs.end(), [&order](const auto& a, const auto& b) {
    return order[a.first].second < order[b.first].second;
  });
  Groups groups;
  for (const auto& [start, end] : runs) {
    for (size_t k = start; k < end; ++k) groups.members.push_back(order[k].second);
    groups.Close();
  }
  return groups;
}

bool Scanner::Refine(const Groups& groups, uint64_t edgeBytes, bool reportBytes, Groups* refined,
                     std::vector<DigestStart>* digests, SysError* err) {
  const size_t count = groups.members.size();
  if (count == 0) return true;
  // A first scan remembers a digest for (nearly) every member: room for them all at once, as
  // grown by doubling ten million records (72 bytes each) briefly took 1.8 GB. A rescan remembers
  // only the files that changed, and grows as it needs.
  if (!settings_.hashCache.empty() && cache_.empty()) cache_.Reserve(count);
  const bool whole = edgeBytes == 0;
  const BlockArray<Kept>& files = table_->files;
  auto identity = [&files](uint32_t file) {
    const Kept& k = files[file];
    return FileIdentity{k.ino, k.size, k.mtimeMs, k.ctimeMs};
  };
  constexpr size_t kBytes = LaneHash128::kDigestBytes;
  std::vector<uint8_t> digest(count * kBytes, 0);  // by position in groups.members
  constexpr uint8_t kCached = 1;
  constexpr uint8_t kUnreadable = 2;
  std::vector<uint8_t> state(count, 0);
  uint64_t cachedBytes = 0;
  // Digests the last scan's cache still vouches for are taken from it. It is looked up in inode
  // order (one walk through it, hash_cache.h), a batch of members at a time.
  if (!cache_.empty()) {
    std::vector<std::pair<uint64_t, uint32_t>> inos;
    const size_t batch = std::max(kMinLookupBatch, (count + kLookupPasses - 1) / kLookupPasses);
    for (size_t from = 0; from < count; from += batch) {
      const size_t to = std::min(count, from + batch);
      inos.clear();
      for (size_t i = from; i < to; ++i)
        inos.emplace_back(files[groups.members[i]].ino, static_cast<uint32_t>(i));
      std::sort(inos.begin(), inos.end());
      size_t cursor = 0;
      for (const auto& [ino, i] : inos) {
        const uint8_t* known = cache_.Find(identity(groups.members[i]), whole, &cursor);
        if (!known) continue;
        cache_.Keep(cursor);
        state[i] = kCached;
        std::memcpy(&digest[i * kBytes], known, kBytes);
        if (whole) cachedBytes += files[groups.members[i]].size;
      }
    }
  }
  // The rest are read in the walk's order, all of this pass's at once: a folder's files are read
  // together, so its inodes and blocks are fetched once, where reading one group after another
  // went back and forth across the tree (ten million small files: 197 s of reading became 181).
  std::vector<uint32_t> toRead;  // positions in groups.members
  toRead.reserve(count);         // (pages a rescan does not fill are never touched)
  for (size_t i = 0; i < count; ++i)
    if (state[i] != kCached) toRead.push_back(static_cast<uint32_t>(i));
  std::sort(toRead.begin(), toRead.end(),
            [&groups](uint32_t a, uint32_t b) { return groups.members[a] < groups.members[b]; });
  uint64_t hashedBefore = cachedBytes;
  for (size_t from = 0; from < toRead.size(); from += kReadBatch) {
    const size_t to = std::min(toRead.size(), from + kReadBatch);
    std::vector<uint32_t> paths(to - from);
    for (size_t j = from; j < to; ++j) paths[j - from] = groups.members[toRead[j]];
    HashRequest request;
    request.paths = std::make_shared<WalkPaths>(table_, std::move(paths));
    request.edgeBytes = edgeBytes;
    request.threads = hashThreads_;
    request.readBytes = kHashReadBytes;
    request.dropPages = dropPages_;
    request.cancel = cancel_;
    auto engine = std::make_shared<HashEngine>(std::move(request));
    std::function<void(const HashProgress&)> report;
    if (reportBytes) {
      report = [this, hashedBefore](const HashProgress& p) {
        state_.bytesHashed = hashedBefore + p.bytes;
        Emit(false);
      };
    }
    if (!engine->Hash(report)) {
      *err = Cancelled();
      return false;
    }
    const HashOutcome& outcome = engine->outcome();
    hashedBefore += outcome.bytesRead;
    filesRead_ += to - from;
    bytesRead_ += outcome.bytesRead;
    for (size_t j = from; j < to; ++j)
      std::memcpy(&digest[toRead[j] * kBytes], &outcome.digests[(j - from) * kBytes], kBytes);
    for (const FileFailure& failure : outcome.failures)
      state[toRead[from + failure.index]] = kUnreadable;
    unreadableContent_ += outcome.failures.size();
    // Remembered batch by batch: the cache writes its runs while the next batch is read.
    if (!settings_.hashCache.empty()) {
      for (size_t j = from; j < to; ++j)
        if (state[toRead[j]] != kUnreadable)
          cache_.Remember(identity(groups.members[toRead[j]]), whole, &digest[toRead[j] * kBytes]);
    }
  }
  toRead = {};
  auto digestOf = [&](size_t i) { return &digest[i * kBytes]; };
  auto compare = [&](size_t a, size_t b) { return std::memcmp(digestOf(a), digestOf(b), kBytes); };
  std::vector<size_t> readable;
  std::vector<std::pair<size_t, size_t>> runs;  // [start, end) in `readable`
  for (size_t g = 0; g < groups.count(); ++g) {
    readable.clear();
    for (size_t i = groups.begin(g); i < groups.end(g); ++i)
      if (state[i] != kUnreadable) readable.push_back(i);
    if (readable.size() < 2) continue;
    // Runs of equal digests, each in member order; the runs in order of their first member.
    StableSortFew(readable.begin(), readable.end(),
                  [&](size_t a, size_t b) { return compare(a, b) < 0; });
    runs.clear();
    for (size_t start = 0, end = 0; start < readable.size(); start = end) {
      end = start + 1;
      while (end < readable.size() && compare(readable[start], readable[end]) == 0) ++end;
      if (end - start > 1) runs.emplace_back(start, end);
    }
    std::sort(runs.begin(), runs.end(), [&readable](const auto& a, const auto& b) {
      return readable[a.first] < readable[b.first];
    });
    for (const auto& [start, end] : runs) {
      for (size_t k = start; k < end; ++k) refined->members.push_back(groups.members[readable[k]]);
      refined->Close();
      digests->push_back(DigestStartOf(digestOf(readable[start])));
    }
  }
  return true;
}

void Scanner::DescribeGroup(const Groups& groups, size_t g, const DigestStart& digest,
                            std::optional<bool> supported, const SharingAnswers* answers,
                            size_t firstAnswer, DescribedGroups* into) const {
  const size_t count = groups.size(g);
  const uint64_t nominal = into->Nominal(g);
  GroupSharing sharing;
  bool compressed = false;
  if (supported == false) {
    // Nothing is shared (hard links are counted once by the walk) and cloning frees nothing.
    sharing.sharedBytes = 0;
    sharing.reclaimableBytes = 0;
    sharing.memberReclaimable.assign(count, uint64_t{0});
    sharing.memberAlreadyClone.assign(count, false);
    sharing.note = kNoSharingNote;
  } else {
    std::vector<MemberStorage> facts(count);
    for (size_t i = 0; i < count; ++i) {
      if (answers->failed[firstAnswer + i]) continue;  // unknown: no facts at all
      const FileSharing& s = answers->sharing[firstAnswer + i];
      facts[i].allocatedBytes = s.allocatedBytes;
      facts[i].extents = s.extents;
      facts[i].cloneId = s.cloneId;
      facts[i].privateBytes = s.privateBytes;
      if (s.compressed == true) compressed = true;
    }
    sharing = SharingOfGroup(facts);
  }
  Described d{};
  // Block-rounded storage can exceed the nominal (logical) bytes; never claim more than nominal.
  d.hasShared = sharing.sharedBytes.has_value();
  if (d.hasShared) d.sharedBytes = std::min(*sharing.sharedBytes, nominal);
  d.hasReclaimable = sharing.reclaimableBytes.has_value();
  if (d.hasReclaimable) d.reclaimableBytes = *sharing.reclaimableBytes;
  d.note = compressed ? kCompressedNote : sharing.note;
  d.keeperIndex = static_cast<uint32_t>(sharing.keeperIndex);
  d.digest = digest;
  into->Add(d, sharing);
}

bool Scanner::Describe(Groups groups, const std::vector<DigestStart>& digests, Result* out,
                       SysError* err) {
  const WalkTable& table = *table_;
  // Older files first (the likely original), then by path, so the keeper is predictable.
  for (size_t g = 0; g < groups.count(); ++g) {
    auto first = groups.members.begin() + static_cast<ptrdiff_t>(groups.begin(g));
    auto last = groups.members.begin() + static_cast<ptrdiff_t>(groups.end(g));
    StableSortFew(first, last, [&table](uint32_t a, uint32_t b) {
      const Kept& x = table.files[a];
      const Kept& y = table.files[b];
      if (x.mtimeMs != y.mtimeMs) return x.mtimeMs < y.mtimeMs;
      return table.PathOf(a) < table.PathOf(b);
    });
  }
  std::optional<bool> supported;
  if (groups.count() > 0) {
    SysError ignored;
    if (!QuerySharingSupport(table.PathOf(groups.members[0]), &supported, &ignored)) {
      supported.reset();
    }
  }
  out->sharingSupported = supported;
  auto described = std::make_shared<DescribedGroups>(table_, std::move(groups));
  const Groups& kept = described->groups();
  // Storage facts are asked for a chunk of groups at a time and dropped once described, so they
  // are never all held at once.
  for (size_t g = 0; g < kept.count();) {
    size_t last = g;
    while (last < kept.count() && kept.end(last) - kept.begin(g) < kSharingChunk) ++last;
    if (last == g) ++last;  // one group larger than a chunk
    std::shared_ptr<SharingEngine> storage;
    if (supported != false) {
      std::vector<uint32_t> files(
          kept.members.begin() + static_cast<ptrdiff_t>(kept.begin(g)),
          kept.members.begin() + static_cast<ptrdiff_t>(kept.end(last - 1)));
      storage = std::make_shared<SharingEngine>(
          std::make_shared<WalkPaths>(table_, std::move(files)), cancel_);
      if (!storage->Run(kSharingThreads, kCancelPoll)) {
        *err = Cancelled();
        return false;
      }
    }
    for (size_t k = g; k < last; ++k) {
      DescribeGroup(kept, k, digests[k], supported, storage ? &storage->answers() : nullptr,
                    kept.begin(k) - kept.begin(g), described.get());
    }
    g = last;
  }
  described->Sort();
  // The totals, from the compact groups (making each Group would write out every path).
  Totals& totals = out->totals;
  totals.sharedBytes = 0;
  totals.reclaimableBytes = 0;
  for (size_t g = 0; g < kept.count(); ++g) {
    const Described& d = described->described()[g];
    totals.nominalBytes += described->Nominal(g);
    if (!d.hasReclaimable) totals.unknownGroups += 1;
    if (totals.sharedBytes && d.hasShared) {
      *totals.sharedBytes += d.sharedBytes;
    } else {
      totals.sharedBytes.reset();
    }
    if (totals.reclaimableBytes && d.hasReclaimable) {
      *totals.reclaimableBytes += d.reclaimableBytes;
    } else {
      totals.reclaimableBytes.reset();
    }
  }
  out->groups = GroupList(std::move(described));
  return true;
}

bool Scanner::Run(Result* out, SysError* err) {
  Emit(true);
  if (!Walk(err)) return false;
  {
    VolumeFacts volume;
    SysError ignored;
    if (QueryVolume(root_, &volume, &ignored)) {
      fsType_ = volume.fsType;
      if (volume.medium == "hdd") hashThreads_ = kHashThreadsSpinning;
    }
  }
  if (!settings_.hashCache.empty()) {
    cache_.Load(settings_.hashCache, rootDev_);
    cache_.SpillBeyond(settings_.spillBytes);
  }
  // Same size first; small files are hashed whole, larger ones compared at both ends first.
  Groups toHash;
  Groups large;
  {
    const Groups bySize = SameSizeGroups();
    // The pages the scan would bring into the cache, at most (each file read whole, its read
    // ending in a whole page). More than the cache can keep and they only push out the user's
    // cached files and the inodes the scan needs next (ten million small files: 40 GB of pages),
    // so such a scan leaves the cache alone; less, and they stay cached for the next scan.
    uint64_t candidateBytes = 0;
    for (const uint32_t file : bySize.members)
      candidateBytes += (table_->files[file].size + kPageBytes - 1) / kPageBytes * kPageBytes;
    dropPages_ = ReadsWouldFloodCache(candidateBytes);
    for (size_t g = 0; g < bySize.count(); ++g) {
      const uint64_t size = table_->files[bySize.members[bySize.begin(g)]].size;
      Groups& into = size <= kSmallFileBytes ? toHash : large;
      into.members.insert(into.members.end(),
                          bySize.members.begin() + static_cast<ptrdiff_t>(bySize.begin(g)),
                          bySize.members.begin() + static_cast<ptrdiff_t>(bySize.end(g)));
      into.Close();
    }
  }
  SetPhase(Phase::kCompare);
  std::vector<DigestStart> edgeDigests;
  if (!Refine(large, kEdgeBytes, false, &toHash, &edgeDigests, err)) return false;
  large = {};
  for (size_t g = 0; g < toHash.count(); ++g) {
    state_.bytesToHash += toHash.size(g) * table_->files[toHash.members[toHash.begin(g)]].size;
  }
  hashStarted_ = Clock::now();
  SetPhase(Phase::kHash);
  Groups hashed;
  std::vector<DigestStart> digests;
  if (!Refine(toHash, 0, true, &hashed, &digests, err)) return false;
  toHash = {};
  state_.bytesHashed = state_.bytesToHash;
  state_.secondsLeft = 0.0;
  if (!settings_.hashCache.empty()) {
    // Saved now, with every digest known, and let go before the groups are described: this scan's
    // records (72 bytes a hashed file) and the last scan's mapping need not sit beside the result.
    // A cache that cannot be written costs the next scan time, not this scan its result.
    SysError ignored;
    cache_.Save(settings_.hashCache, rootDev_, &ignored);
  }
  cache_ = HashCache{};
  SetPhase(Phase::kSharing);
  if (!Describe(std::move(hashed), digests, out, err)) return false;
  SetPhase(Phase::kDone);
  out->filesRead = filesRead_;
  out->bytesRead = bytesRead_;

  out->fsType = fsType_;
  out->scanId = settings_.scanId;
  out->root = root_;
  out->files = state_.files;
  out->bytes = state_.bytes;
  out->seconds = SecondsSince(started_);
  out->stageSeconds = stages_;
  out->skipped = skipped_;
  out->skipped.unreadable += unreadableContent_;
  out->sparse = sparse_;
  out->sparsePaths = std::move(sparsePaths_);
  out->largePaths = std::move(largePaths_);
  return true;
}

}  // namespace

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kWalk: return "walk";
    case Phase::kCompare: return "compare";
    case Phase::kHash: return "hash";
    case Phase::kSharing: return "sharing";
    case Phase::kDone: return "done";
  }
  return "walk";
}

bool RunScan(const Settings& settings, const CancelPtr& cancel, const ProgressFn& progress,
             Result* out, SysError* err) {
  Scanner scanner(settings, cancel, progress);
  if (!scanner.Run(out, err)) return false;
  if (cancel && cancel->cancelled.load()) {
    *err = Cancelled();
    return false;
  }
  return true;
}

}  // namespace scan
}  // namespace plumb
