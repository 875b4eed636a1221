// Group sharing: Linux-style physical extents (a sweep over every member's ranges, with a shortcut
// for plain copies) and macOS-style clone facts (clone ids and private sizes).
#include "scan/sharing.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace plumb {
namespace scan {
namespace {

const char kUnknownNote[] =
    "This file system does not say which files share storage, so savings are unknown until "
    "measured.";
const char kOutsideNote[] =
    "Some blocks are also shared with files outside this group (other clones or snapshots); they "
    "are not counted as reclaimable.";

struct Range {
  uint64_t start;
  uint64_t end;
};

// Sorted, non-overlapping, non-empty ranges covering what `ranges` cover.
std::vector<Range> Merge(std::vector<Range> ranges) {
  ranges.erase(
      std::remove_if(ranges.begin(), ranges.end(), [](const Range& r) { return r.end <= r.start; }),
      ranges.end());
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range& a, const Range& b) { return a.start < b.start; });
  std::vector<Range> merged;
  for (const Range& r : ranges) {
    if (!merged.empty() && r.start <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

std::vector<Range> PhysicalRanges(const std::vector<FileExtent>& extents) {
  std::vector<Range> ranges;
  ranges.reserve(extents.size());
  for (const FileExtent& e : extents) ranges.push_back({e.physical, e.physical + e.length});
  return Merge(std::move(ranges));
}

uint64_t Covered(const std::vector<Range>& merged) {
  uint64_t sum = 0;
  for (const Range& r : merged) sum += r.end - r.start;
  return sum;
}

// Every range of `inner` lies within one range of `outer` (both merged).
bool ContainsAll(const std::vector<Range>& outer, const std::vector<Range>& inner) {
  return std::all_of(inner.begin(), inner.end(), [&](const Range& r) {
    return std::any_of(outer.begin(), outer.end(),
                       [&](const Range& o) { return o.start <= r.start && r.end <= o.end; });
  });
}

// The common case, answered without the sweep: no extent flagged shared and no two extents (of
// any members) overlapping, i.e. plain copies. Then nothing is shared, each copy frees its own
// bytes, and the keeper is the first member holding the fewest bytes. Exactly what SweepExtents
// gives for such members; nullopt when the members are not like that.
std::optional<GroupSharing> FromSeparateExtents(const std::vector<MemberStorage>& members) {
  std::vector<uint64_t> held(members.size(), 0);
  std::vector<Range> all;
  for (size_t member = 0; member < members.size(); ++member) {
    for (const FileExtent& e : *members[member].extents) {
      if (e.length == 0) continue;
      if (e.shared) return std::nullopt;
      held[member] += e.length;
      all.push_back({e.physical, e.physical + e.length});
    }
  }
  std::sort(all.begin(), all.end(),
            [](const Range& a, const Range& b) { return a.start < b.start; });
  for (size_t k = 1; k < all.size(); ++k) {
    if (all[k].start < all[k - 1].end) return std::nullopt;
  }
  size_t keeper = 0;
  for (size_t i = 0; i < held.size(); ++i) {
    if (held[i] < held[keeper]) keeper = i;
  }
  GroupSharing out;
  out.keeperIndex = keeper;
  out.sharedBytes = 0;
  out.reclaimableBytes = std::accumulate(held.begin(), held.end(), uint64_t{0}) - held[keeper];
  for (size_t i = 0; i < held.size(); ++i) {
    out.memberReclaimable.emplace_back(i == keeper ? 0 : held[i]);
    // A copy without storage lies within the keeper's (as the sweep's ContainsAll says).
    out.memberAlreadyClone.emplace_back(i != keeper && held[i] == 0);
  }
  return out;
}

// macOS: clone ids say which members are full clones; private size says what each holds alone.
GroupSharing FromCloneFacts(const std::vector<MemberStorage>& members) {
  auto hasId = [](const MemberStorage& m) { return m.cloneId && !m.cloneId->empty(); };
  std::map<std::string, size_t> counts;
  for (const MemberStorage& m : members)
    if (hasId(m)) counts[*m.cloneId] += 1;
  size_t keeper = 0;
  size_t most = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    const size_t count = hasId(members[i]) ? counts[*members[i].cloneId] : 0;
    if (count > most) {
      most = count;
      keeper = i;
    }
  }
  GroupSharing out;
  out.keeperIndex = keeper;
  const std::optional<std::string>& keeperClone = members[keeper].cloneId;
  bool known = true;
  uint64_t reclaimable = 0;
  uint64_t copiesBytes = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    const MemberStorage& m = members[i];
    const bool clone = i != keeper && keeperClone.has_value() && m.cloneId == keeperClone;
    out.memberAlreadyClone.emplace_back(clone);
    if (i == keeper || clone) {
      out.memberReclaimable.emplace_back(0);
    } else {
      out.memberReclaimable.push_back(m.privateBytes);
      if (m.privateBytes)
        reclaimable += *m.privateBytes;
      else
        known = false;
    }
    if (i != keeper) copiesBytes += m.allocatedBytes;
  }
  if (known) {
    out.reclaimableBytes = reclaimable;
    out.sharedBytes = copiesBytes > reclaimable ? copiesBytes - reclaimable : 0;
  } else {
    out.note = kUnknownNote;
  }
  return out;
}

}  // namespace

GroupSharing SweepExtents(const std::vector<MemberStorage>& members) {
  // Segments between consecutive range ends, each with the members covering it and whether any of
  // them flags it shared.
  struct Event {
    uint64_t at;
    size_t member;
    bool shared;
    bool opens;
  };
  std::vector<Event> events;
  for (size_t member = 0; member < members.size(); ++member) {
    for (const FileExtent& e : *members[member].extents) {
      if (e.length == 0) continue;
      events.push_back({e.physical, member, e.shared, true});
      events.push_back({e.physical + e.length, member, e.shared, false});
    }
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
  struct Piece {
    uint64_t bytes;
    std::vector<size_t> owners;  // distinct members, ascending
    bool heldOutside;            // flagged shared but referenced by only one member here
  };
  std::vector<Piece> pieces;
  // Open extents per member: how many, and how many of them flagged shared.
  std::vector<uint32_t> open(members.size(), 0);
  std::vector<uint32_t> openShared(members.size(), 0);
  size_t active = 0;
  for (size_t i = 0; i < events.size();) {
    const uint64_t at = events[i].at;
    for (; i < events.size() && events[i].at == at; ++i) {
      const Event& e = events[i];
      const int step = e.opens ? 1 : -1;
      active += step;
      open[e.member] += step;
      if (e.shared) openShared[e.member] += step;
    }
    if (i == events.size() || active == 0) continue;
    Piece piece{events[i].at - at, {}, false};
    bool flagged = false;
    for (size_t m = 0; m < members.size(); ++m) {
      if (open[m] == 0) continue;
      piece.owners.push_back(m);
      if (openShared[m] > 0) flagged = true;
    }
    piece.heldOutside = flagged && piece.owners.size() < 2;
    pieces.push_back(std::move(piece));
  }
  auto owns = [](const Piece& p, size_t member) {
    return std::binary_search(p.owners.begin(), p.owners.end(), member);
  };
  auto reclaimFor = [&](size_t keeper) {
    uint64_t sum = 0;
    for (const Piece& p : pieces)
      if (!owns(p, keeper) && !p.heldOutside) sum += p.bytes;
    return sum;
  };
  GroupSharing out;
  uint64_t best = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    const uint64_t reclaim = reclaimFor(i);
    if (i == 0 || reclaim > best) {
      best = reclaim;
      out.keeperIndex = i;
    }
  }
  const size_t keeper = out.keeperIndex;
  // Each freed piece is attributed to the first copy (in order) that references it.
  std::vector<uint64_t> memberReclaimable(members.size(), 0);
  bool outside = false;
  for (const Piece& p : pieces) {
    if (owns(p, keeper)) continue;
    if (p.heldOutside) {
      outside = true;
      continue;
    }
    memberReclaimable[p.owners.front()] += p.bytes;
  }
  const std::vector<Range> keeperRanges = PhysicalRanges(*members[keeper].extents);
  uint64_t copiesBytes = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    out.memberReclaimable.emplace_back(memberReclaimable[i]);
    if (i == keeper) {
      out.memberAlreadyClone.emplace_back(false);
      continue;
    }
    const std::vector<Range> ranges = PhysicalRanges(*members[i].extents);
    out.memberAlreadyClone.emplace_back(ContainsAll(keeperRanges, ranges));
    copiesBytes += Covered(ranges);
  }
  out.sharedBytes = copiesBytes - best;
  out.reclaimableBytes = best;
  if (outside) out.note = kOutsideNote;
  return out;
}

GroupSharing SharingOfGroup(const std::vector<MemberStorage>& members) {
  const bool allExtents =
      !members.empty() && std::all_of(members.begin(), members.end(),
                                      [](const MemberStorage& m) { return m.extents.has_value(); });
  if (allExtents) {
    std::optional<GroupSharing> plain = FromSeparateExtents(members);
    return plain ? std::move(*plain) : SweepExtents(members);
  }
  const bool allCloneFacts =
      !members.empty() && std::all_of(members.begin(), members.end(), [](const MemberStorage& m) {
        return m.privateBytes.has_value() || m.cloneId.has_value();
      });
  if (allCloneFacts) return FromCloneFacts(members);
  GroupSharing out;
  for (size_t i = 0; i < members.size(); ++i) {
    out.memberReclaimable.push_back(i == 0 ? std::optional<uint64_t>(0) : std::nullopt);
    out.memberAlreadyClone.push_back(i == 0 ? std::optional<bool>(false) : std::nullopt);
  }
  out.note = kUnknownNote;
  return out;
}

}  // namespace scan
}  // namespace plumb
