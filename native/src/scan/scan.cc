// The space scan (see scan.h): walk, then narrow candidates step by step (size, head and tail
// digest, full digest), then ask the file system how each group's copies are stored.
//
// Orders are part of the answer and follow the rules the app has always used: folders are listed
// breadth first (256 at a time on a few threads, placed in order), files keep the order found,
// groups are split in first-seen order, and the finished groups are sorted by reclaimable bytes.
#include "scan/scan.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

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
constexpr uint32_t kHashThreads = 4;     // files read at once: keeps a disk busy, stays sequential
constexpr uint32_t kSharingThreads = 4;  // storage queries at once (metadata only)
constexpr uint64_t kEdgeBytes = 4096;    // bytes from each end for the partial digest
constexpr uint64_t kSmallFileBytes = 64 * 1024;  // hashed whole at once: an edge key reads most
constexpr uint64_t kSparseGapBytes = 64 * 1024;  // allocated this far below size: sparse
constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr auto kCancelPoll = std::chrono::milliseconds(50);

// Temporary clones Plumb makes beside a file while replacing it (app/core/space/walk.ts).
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

// The skip rules of app/core/space/walk.ts (isSkippedFolder, isSkippedFile).
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

std::string EntryPath(const std::string& dir, const std::string& name) {
  return (!dir.empty() && dir.back() == kSeparator) ? dir + name : dir + kSeparator + name;
}

SysError Cancelled() { return SysError{"ECANCELED", "scanFolder", "", "The scan was cancelled."}; }

// A file kept by the walk, before it is known to have a same-size partner.
struct Kept {
  uint32_t dir;  // index into Walk::dirs
  std::string name;
  uint64_t size;
  uint64_t ino;
  double mtimeMs;
  double ctimeMs;
  uint32_t links;
};

// A candidate duplicate: a kept file with its full path.
struct Candidate {
  std::string path;
  uint64_t size;
  uint64_t ino;
  double mtimeMs;
  double ctimeMs;
  uint32_t links;
};

using Groups = std::vector<std::vector<Candidate>>;

// Lists a batch of folders on a few threads; Run returns false at once when cancelled (a listing
// in flight finishes in the background, owning the batch jointly with the caller).
class ListingPool : public DetachedPool {
 public:
  struct Listing {
    std::vector<FolderEntry> entries;
    bool ok = false;
  };
  ListingPool(std::vector<std::string> dirs, CancelPtr cancel)
      : DetachedPool(dirs.size(), std::move(cancel)), dirs_(std::move(dirs)), out_(dirs_.size()) {}
  std::vector<Listing>& listings() { return out_; }

 private:
  void Process(size_t index) override {
    SysError err;
    out_[index].ok = ListFolder(dirs_[index], &out_[index].entries, &err);
  }
  const std::vector<std::string> dirs_;
  std::vector<Listing> out_;
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
  void Place(uint32_t dir, FolderEntry& entry);
  Groups SameSizeGroups();
  // Splits groups by content digest (edge bytes from each end, or whole files when 0); members
  // that cannot be read are dropped and counted. `digests` gets each kept group's digest.
  bool Refine(const Groups& groups, uint64_t edgeBytes, bool reportBytes, Groups* refined,
              std::vector<std::string>* digests, SysError* err);
  bool Describe(Groups groups, const std::vector<std::string>& digests, Result* out, SysError* err);

  const Settings& settings_;
  CancelPtr cancel_;
  const ProgressFn& progressFn_;
  const Clock::time_point started_;
  Progress state_;
  Clock::time_point lastEmit_{};
  Clock::time_point stageStarted_ = started_;
  Clock::time_point hashStarted_{};
  StageSeconds stages_;

  // The walk.
  std::string root_;
  uint64_t rootDev_ = 0;
  std::vector<std::string> dirs_;
  std::vector<Kept> kept_;
  // Files with more than one name: the index of the kept one, -1 when not kept (too small).
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, int64_t>> linked_;
  Skips skipped_;
  SparseSummary sparse_;
  uint64_t unreadableContent_ = 0;
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
  if (entry.kind == EntryKind::kFolder) {
    dirs_.push_back(EntryPath(dirs_[dir], entry.name));
    return;
  }
  if (entry.links > 1) {
    auto& byIno = linked_[entry.dev];
    auto found = byIno.find(entry.ino);
    if (found != byIno.end()) {
      if (found->second >= 0) kept_[static_cast<size_t>(found->second)].links += 1;
      skipped_.extraHardLinks += 1;
      return;
    }
    byIno.emplace(entry.ino,
                  entry.size < settings_.minBytes ? -1 : static_cast<int64_t>(kept_.size()));
  }
  state_.files += 1;
  state_.bytes += entry.size;
  if (entry.size > entry.allocatedBytes && entry.size - entry.allocatedBytes >= kSparseGapBytes) {
    sparse_.files += 1;
    sparse_.logicalBytes += entry.size;
    sparse_.allocatedBytes += entry.allocatedBytes;
  }
  if (entry.size < settings_.minBytes) return;
  kept_.push_back(
      Kept{dir, std::move(entry.name), entry.size, entry.ino, entry.mtimeMs, entry.ctimeMs, 1});
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
  dirs_.push_back(root_);
  // Folders are listed breadth first: those found are appended to dirs_ and listed in later
  // batches, in the order found.
  for (size_t next = 0; next < dirs_.size();) {
    if (cancelled()) {
      *err = Cancelled();
      return false;
    }
    const size_t end = std::min(dirs_.size(), next + kFoldersPerBatch);
    std::vector<std::string> batch(dirs_.begin() + static_cast<ptrdiff_t>(next),
                                   dirs_.begin() + static_cast<ptrdiff_t>(end));
    auto pool = std::make_shared<ListingPool>(std::move(batch), cancel_);
    if (!pool->Run(kListThreads, kCancelPoll)) {
      *err = Cancelled();
      return false;
    }
    for (size_t i = next; i < end; ++i) {
      ListingPool::Listing& listing = pool->listings()[i - next];
      if (!listing.ok) {
        skipped_.unreadable += 1;
        continue;
      }
      for (FolderEntry& entry : listing.entries) {
        if (entry.kind == EntryKind::kSymlink) {
          skipped_.symlinks += 1;
          continue;
        }
        const bool excluded = entry.kind == EntryKind::kFolder
                                  ? IsSkippedFolder(entry.name, settings_)
                                  : IsSkippedFile(entry.name, settings_);
        if (excluded) {
          skipped_.excluded += 1;
          continue;
        }
        Place(static_cast<uint32_t>(i), entry);
      }
      listing.entries = {};
      Emit(false);
    }
    next = end;
  }
  return true;
}

// Files whose size another kept file has, grouped by size in first-seen order, members in order.
Groups Scanner::SameSizeGroups() {
  std::unordered_map<uint64_t, uint32_t> count;
  for (const Kept& k : kept_) count[k.size] += 1;
  std::unordered_map<uint64_t, size_t> groupOf;
  Groups groups;
  for (Kept& k : kept_) {
    if (count[k.size] < 2) continue;
    auto [at, added] = groupOf.emplace(k.size, groups.size());
    if (added) groups.emplace_back();
    groups[at->second].push_back(
        Candidate{EntryPath(dirs_[k.dir], k.name), k.size, k.ino, k.mtimeMs, k.ctimeMs, k.links});
  }
  kept_ = {};
  dirs_ = {};
  linked_ = {};
  return groups;
}

std::string Hex(const uint8_t* bytes, size_t count) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(count * 2, '0');
  for (size_t i = 0; i < count; ++i) {
    out[i * 2] = kDigits[bytes[i] >> 4];
    out[i * 2 + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

bool Scanner::Refine(const Groups& groups, uint64_t edgeBytes, bool reportBytes, Groups* refined,
                     std::vector<std::string>* digests, SysError* err) {
  HashRequest request;
  for (const auto& group : groups)
    for (const Candidate& c : group) request.paths.push_back(c.path);
  if (request.paths.empty()) return true;
  const size_t members = request.paths.size();
  request.edgeBytes = edgeBytes;
  request.threads = kHashThreads;
  request.cancel = cancel_;
  auto engine = std::make_shared<HashEngine>(std::move(request));
  std::function<void(const HashProgress&)> report;
  if (reportBytes) {
    report = [this](const HashProgress& p) {
      state_.bytesHashed = p.bytes;
      Emit(false);
    };
  }
  if (!engine->Hash(report)) {
    *err = Cancelled();
    return false;
  }
  const HashOutcome& outcome = engine->outcome();
  std::vector<uint8_t> unreadable(members, 0);
  for (const FileFailure& failure : outcome.failures) unreadable[failure.index] = 1;
  unreadableContent_ += outcome.failures.size();
  const uint8_t* digest = outcome.digests.data();
  auto digestOf = [&](size_t i) { return digest + i * LaneHash128::kDigestBytes; };
  auto same = [&](size_t a, size_t b) {
    return std::memcmp(digestOf(a), digestOf(b), LaneHash128::kDigestBytes) == 0;
  };
  size_t offset = 0;
  for (const auto& group : groups) {
    const size_t start = offset;
    offset += group.size();
    std::vector<size_t> readable;
    for (size_t i = start; i < offset; ++i)
      if (!unreadable[i]) readable.push_back(i);
    if (readable.size() < 2) continue;
    // Runs of equal digests, each in member order; the runs in order of their first member.
    std::stable_sort(readable.begin(), readable.end(), [&](size_t a, size_t b) {
      return std::memcmp(digestOf(a), digestOf(b), LaneHash128::kDigestBytes) < 0;
    });
    std::vector<std::vector<size_t>> runs;
    std::vector<size_t> run{readable[0]};
    for (size_t k = 1; k <= readable.size(); ++k) {
      if (k < readable.size() && same(run[0], readable[k])) {
        run.push_back(readable[k]);
        continue;
      }
      if (run.size() > 1) runs.push_back(std::move(run));
      run.assign(1, k < readable.size() ? readable[k] : 0);
    }
    std::sort(
        runs.begin(), runs.end(),
        [](const std::vector<size_t>& a, const std::vector<size_t>& b) { return a[0] < b[0]; });
    for (const auto& kept : runs) {
      std::vector<Candidate> members;
      for (size_t index : kept) members.push_back(group[index - start]);
      refined->push_back(std::move(members));
      digests->push_back(Hex(digestOf(kept[0]), LaneHash128::kDigestBytes));
    }
  }
  return true;
}

// Largest reclaimable first; groups whose savings are unknown after, by nominal size.
bool BeforeInOrder(const Group& a, const Group& b) {
  if (a.reclaimableBytes && b.reclaimableBytes) {
    if (*a.reclaimableBytes != *b.reclaimableBytes)
      return *a.reclaimableBytes > *b.reclaimableBytes;
    return a.nominalBytes > b.nominalBytes;
  }
  if (a.reclaimableBytes) return true;
  if (b.reclaimableBytes) return false;
  return a.nominalBytes > b.nominalBytes;
}

bool Scanner::Describe(Groups groups, const std::vector<std::string>& digests, Result* out,
                       SysError* err) {
  // Older files first (the likely original), then by path, so the keeper is predictable.
  for (auto& members : groups) {
    std::stable_sort(members.begin(), members.end(), [](const Candidate& a, const Candidate& b) {
      if (a.mtimeMs != b.mtimeMs) return a.mtimeMs < b.mtimeMs;
      return a.path < b.path;
    });
  }
  std::optional<bool> supported;
  if (!groups.empty()) {
    SysError ignored;
    if (!QuerySharingSupport(groups[0][0].path, &supported, &ignored)) supported.reset();
  }
  out->sharingSupported = supported;
  // Storage facts of every member, asked a few at a time; none on a file system without clones.
  std::vector<std::string> paths;
  if (supported != false) {
    for (const auto& members : groups)
      for (const Candidate& c : members) paths.push_back(c.path);
  }
  auto storage = std::make_shared<SharingEngine>(std::move(paths), cancel_);
  if (!storage->Run(kSharingThreads, kCancelPoll)) {
    *err = Cancelled();
    return false;
  }
  const SharingAnswers& answers = storage->answers();
  size_t flat = 0;
  out->groups.reserve(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<Candidate>& members = groups[g];
    const uint64_t size = members[0].size;
    const uint64_t nominal = size * (members.size() - 1);
    GroupSharing sharing;
    bool compressed = false;
    if (supported == false) {
      sharing.sharedBytes = 0;
      sharing.reclaimableBytes = 0;
      sharing.memberReclaimable.assign(members.size(), uint64_t{0});
      sharing.memberAlreadyClone.assign(members.size(), false);
      sharing.note = kNoSharingNote;
    } else {
      std::vector<MemberStorage> facts(members.size());
      for (size_t i = 0; i < members.size(); ++i, ++flat) {
        if (answers.failed[flat]) continue;  // unknown: no facts at all
        const FileSharing& s = answers.sharing[flat];
        facts[i].allocatedBytes = s.allocatedBytes;
        facts[i].extents = s.extents;
        facts[i].cloneId = s.cloneId;
        facts[i].privateBytes = s.privateBytes;
        if (s.compressed == true) compressed = true;
      }
      sharing = SharingOfGroup(facts);
    }
    Group group;
    group.id = std::to_string(size) + "-" + digests[g].substr(0, 16);
    group.size = size;
    group.keeper = members[sharing.keeperIndex].path;
    group.nominalBytes = nominal;
    // Block-rounded storage can exceed the nominal (logical) bytes; never claim more than nominal.
    if (sharing.sharedBytes) group.sharedBytes = std::min(*sharing.sharedBytes, nominal);
    group.reclaimableBytes = sharing.reclaimableBytes;
    group.note = compressed ? std::optional<std::string>(kCompressedNote) : sharing.note;
    group.files.reserve(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
      Candidate& c = members[i];
      group.files.push_back(GroupFile{std::move(c.path), c.size, c.ino, c.mtimeMs, c.ctimeMs,
                                      c.links, sharing.memberReclaimable[i],
                                      sharing.memberAlreadyClone[i]});
    }
    members = {};
    out->groups.push_back(std::move(group));
  }
  std::stable_sort(out->groups.begin(), out->groups.end(), BeforeInOrder);
  return true;
}

bool Scanner::Run(Result* out, SysError* err) {
  Emit(true);
  if (!Walk(err)) return false;
  // Same size first; small files are hashed whole, larger ones compared at both ends first.
  Groups bySize = SameSizeGroups();
  Groups small;
  Groups large;
  for (auto& group : bySize)
    (group[0].size <= kSmallFileBytes ? small : large).push_back(std::move(group));
  bySize = {};
  SetPhase(Phase::kCompare);
  Groups toHash = std::move(small);
  std::vector<std::string> edgeDigests;
  if (!Refine(large, kEdgeBytes, false, &toHash, &edgeDigests, err)) return false;
  large = {};
  for (const auto& group : toHash) state_.bytesToHash += group.size() * group[0].size;
  hashStarted_ = Clock::now();
  SetPhase(Phase::kHash);
  Groups hashed;
  std::vector<std::string> digests;
  if (!Refine(toHash, 0, true, &hashed, &digests, err)) return false;
  toHash = {};
  state_.bytesHashed = state_.bytesToHash;
  state_.secondsLeft = 0.0;
  SetPhase(Phase::kSharing);
  if (!Describe(std::move(hashed), digests, out, err)) return false;
  SetPhase(Phase::kDone);

  VolumeFacts volume;
  SysError ignored;
  if (QueryVolume(root_, &volume, &ignored)) out->fsType = volume.fsType;
  out->scanId = settings_.scanId;
  out->root = root_;
  out->files = state_.files;
  out->bytes = state_.bytes;
  out->seconds = SecondsSince(started_);
  out->stageSeconds = stages_;
  out->skipped = skipped_;
  out->skipped.unreadable += unreadableContent_;
  out->sparse = sparse_;
  Totals& totals = out->totals;
  totals.sharedBytes = 0;
  totals.reclaimableBytes = 0;
  for (const Group& g : out->groups) {
    totals.nominalBytes += g.nominalBytes;
    if (!g.reclaimableBytes) totals.unknownGroups += 1;
    if (totals.sharedBytes && g.sharedBytes)
      *totals.sharedBytes += *g.sharedBytes;
    else
      totals.sharedBytes.reset();
    if (totals.reclaimableBytes && g.reclaimableBytes)
      *totals.reclaimableBytes += *g.reclaimableBytes;
    else
      totals.reclaimableBytes.reset();
  }
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
