#include "ingest/PointSpool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <system_error>

namespace skinpulse::ingest {
namespace {

constexpr std::size_t kReadBufferRecords = 1024;

[[noreturn]] void fail(const char* what) {
  throw std::system_error(errno, std::generic_category(), std::string("backfill spool: ") + what);
}

}  // namespace

// Reads one spilled run back a buffer at a time.
class PointSpool::RunReader {
 public:
  RunReader(std::FILE* file, const Run& run)
      : file_(file), next_offset_(run.offset), left_(run.count) {
    refill();
  }
  bool done() const { return pos_ == buffer_.size(); }
  const Record& head() const { return buffer_[pos_]; }
  void pop() {
    if (++pos_ == buffer_.size()) refill();
  }

 private:
  void refill() {
    const std::size_t n = std::min(left_, kReadBufferRecords);
    buffer_.resize(n);
    pos_ = 0;
    if (n == 0) return;
    if (std::fseek(file_, next_offset_, SEEK_SET) != 0) fail("seek");
    if (std::fread(buffer_.data(), sizeof(Record), n, file_) != n) fail("read");
    next_offset_ += static_cast<long>(n * sizeof(Record));
    left_ -= n;
  }

  std::FILE* file_;
  long next_offset_;
  std::size_t left_;
  std::vector<Record> buffer_;
  std::size_t pos_ = 0;
};

PointSpool::PointSpool(std::size_t run_points) : run_points_(std::max<std::size_t>(run_points, 1)) {
  records_.reserve(std::min(run_points_, kDefaultRunPoints));
}

PointSpool::~PointSpool() {
  if (file_ != nullptr) std::fclose(file_);
}

std::uint32_t PointSpool::intern(const std::string& source) {
  const auto it = source_ids_.find(source);
  if (it != source_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(sources_.size());
  sources_.push_back(source);
  source_ids_.emplace(source, id);
  return id;
}

void PointSpool::add(const store::PricePoint& p) {
  records_.push_back(Record{p.item_id, p.time, p.price, p.volume, p.listings.value_or(0),
                            intern(p.source), static_cast<std::uint8_t>(p.kind),
                            static_cast<std::uint8_t>(p.listings ? 1 : 0),
                            static_cast<std::uint8_t>(p.outlier ? 1 : 0)});
  ++total_;
  if (records_.size() == run_points_) spill();
}

bool PointSpool::before(const Record& a, const Record& b) const {
  if (a.time != b.time) return a.time < b.time;
  return a.source != b.source && sources_[a.source] < sources_[b.source];
}

void PointSpool::sortRun() {
  std::stable_sort(records_.begin(), records_.end(),
                   [this](const Record& a, const Record& b) { return before(a, b); });
}

void PointSpool::spill() {
  if (file_ == nullptr && (file_ = std::tmpfile()) == nullptr) fail("temporary file");
  sortRun();
  if (std::fseek(file_, 0, SEEK_END) != 0) fail("seek");
  const long offset = std::ftell(file_);
  if (std::fwrite(records_.data(), sizeof(Record), records_.size(), file_) != records_.size()) {
    fail("write");
  }
  runs_.push_back(Run{offset, records_.size()});
  records_.clear();
}

store::PricePoint PointSpool::point(const Record& r) const {
  store::PricePoint p{r.item_id, sources_[r.source], r.time,
                      r.price,   r.volume,           static_cast<sdk::PriceKind>(r.kind)};
  if (r.has_listings != 0) p.listings = r.listings;
  p.outlier = r.outlier != 0;
  return p;
}

void PointSpool::drain(std::size_t chunk,
                       const std::function<void(std::vector<store::PricePoint>&)>& visit) {
  chunk = std::max<std::size_t>(chunk, 1);
  std::vector<store::PricePoint> out;
  out.reserve(std::min(chunk, total_));
  const auto emit = [&](const Record& record) {
    out.push_back(point(record));
    if (out.size() == chunk) {
      visit(out);
      out.clear();
    }
  };
  if (runs_.empty()) {
    sortRun();
    for (const auto& record : records_) emit(record);
  } else {
    if (!records_.empty()) spill();
    if (std::fflush(file_) != 0) fail("flush");
    std::vector<RunReader> readers;
    readers.reserve(runs_.size());
    for (const auto& run : runs_) readers.emplace_back(file_, run);
    // Ties go to the earlier run: runs are in file order, so the merge stays stable.
    const auto later = [&](std::size_t a, std::size_t b) {
      const Record& x = readers[a].head();
      const Record& y = readers[b].head();
      if (before(x, y)) return false;
      if (before(y, x)) return true;
      return a > b;
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
    for (std::size_t i = 0; i < readers.size(); ++i) {
      if (!readers[i].done()) heads.push(i);
    }
    while (!heads.empty()) {
      const std::size_t i = heads.top();
      heads.pop();
      emit(readers[i].head());
      readers[i].pop();
      if (!readers[i].done()) heads.push(i);
    }
  }
  if (!out.empty()) visit(out);
  records_.clear();
  records_.shrink_to_fit();
}

}  // namespace skinpulse::ingest
