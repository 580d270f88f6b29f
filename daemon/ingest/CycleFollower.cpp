#include "ingest/CycleFollower.hpp"

#include "common/Log.hpp"

namespace skinpulse::ingest {
CycleFollower::CycleFollower(store::PriceStore& store, Options options, Clock::time_point now)
    : store_(store), options_(options), last_look_(now) {
  caughtUp(now);
}

void CycleFollower::caughtUp(Clock::time_point now) {
  seq_ = store_.lastCycleSeq();
  last_look_ = now;
}

CycleFollower::Step CycleFollower::next(Clock::time_point now) {
  const std::int64_t last = store_.lastCycleSeq();
  const bool silent_too_long = now - last_look_ > options_.max_silence;
  if (!seq_ || last < *seq_ || silent_too_long) {
    if (seq_ && last < *seq_) {
      log::main().warn("the cycle log went back from {} to {}: reloading the caches", *seq_, last);
    }
    return {Result::kGap, {}};
  }
  last_look_ = now;
  if (last == *seq_) return {Result::kUpToDate, {}};
  auto followed = store_.cyclesAfter(*seq_, options_.max_cycles);
  if (!followed.complete) return {Result::kGap, {}};  // pruned past the position
  if (followed.last_seq < last) {
    // More cycles behind than one read takes: replaying them costs more than a reload.
    return {Result::kGap, {}};
  }
  seq_ = followed.last_seq;
  return {Result::kFollowed, std::move(followed.points)};
}

}  // namespace skinpulse::ingest
