// Completion-latency histogram: exact below 128 ns, then 64 buckets per power of two, so a
// percentile is within 0.8 % of the true value without storing every sample.
#include "io.h"

namespace plumb {
namespace {

constexpr int kSubBits = 6;
constexpr uint64_t kExact = 2u << kSubBits;  // 128
constexpr size_t kBuckets = kExact + (64 - (kSubBits + 1)) * (1u << kSubBits);

int HighestBit(uint64_t v) {
  int bit = 0;
  while (v >>= 1) ++bit;
  return bit;
}

size_t BucketOf(uint64_t nanos) {
  if (nanos < kExact) return static_cast<size_t>(nanos);
  const int msb = HighestBit(nanos);
  const int shift = msb - kSubBits;
  return kExact + static_cast<size_t>(msb - (kSubBits + 1)) * (1u << kSubBits) +
         static_cast<size_t>((nanos >> shift) - (1u << kSubBits));
}

uint64_t MidpointOf(size_t bucket) {
  if (bucket < kExact) return bucket;
  const size_t group = (bucket - kExact) >> kSubBits;
  const uint64_t sub = (bucket - kExact) & ((1u << kSubBits) - 1);
  const int shift = static_cast<int>(group) + 1;
  const uint64_t low = ((1u << kSubBits) + sub) << shift;
  return low + (uint64_t{1} << shift) / 2;
}

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kBuckets, 0) {}

void LatencyHistogram::Record(uint64_t nanos) {
  ++buckets_[BucketOf(nanos)];
  ++count_;
  sum_ += nanos;
  if (nanos > max_) max_ = nanos;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  if (other.max_ > max_) max_ = other.max_;
}

uint64_t LatencyHistogram::Percentile(double fraction) const {
  if (count_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(fraction * static_cast<double>(count_));
  if (rank < 1) rank = 1;
  if (rank > count_) rank = count_;
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::min(MidpointOf(i), max_);
  }
  return max_;
}

}  // namespace plumb
