#pragma once

// PointSpool: the points of a backfill handed back in the order the outlier rules judge
// them (time, then source name, then file order), holding a bounded number in memory
// whatever the file's size. Points are kept as 48-byte records with the source interned;
// when more than `run_points` arrive, each full run is sorted and spilled to an anonymous
// temporary file, and drain() merges the runs. Memory: one run plus one read buffer per
// run (a million points: ~6 MiB plus 8 × 48 KiB by default), instead of ~100 bytes per
// point for a vector of PricePoint.

#include "store/Records.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skinpulse::ingest {

class PointSpool {
 public:
  static constexpr std::size_t kDefaultRunPoints = 128 * 1024;

  explicit PointSpool(std::size_t run_points = kDefaultRunPoints);
  ~PointSpool();
  PointSpool(const PointSpool&) = delete;
  PointSpool& operator=(const PointSpool&) = delete;

  void add(const store::PricePoint& point);
  std::size_t size() const { return total_; }
  /// How many runs went to the temporary file (0 when everything fit in memory).
  std::size_t spilledRuns() const { return runs_.size(); }

  /// Every point, in order, in consecutive chunks of at most `chunk` points; `visit` may
  /// modify a chunk (flag outliers) before it is dropped. Call once.
  void drain(std::size_t chunk, const std::function<void(std::vector<store::PricePoint>&)>& visit);

 private:
  struct Record {
    std::int64_t item_id;
    std::int64_t time;
    std::int64_t price;
    std::int64_t volume;
    std::int64_t listings;
    std::uint32_t source;
    std::uint8_t kind;
    std::uint8_t has_listings;
    std::uint8_t outlier;
    std::uint8_t pad = 0;
  };
  struct Run {
    long offset;        ///< in file_, in records' bytes
    std::size_t count;  ///< records
  };
  class RunReader;

  std::uint32_t intern(const std::string& source);
  bool before(const Record& a, const Record& b) const;
  void sortRun();
  void spill();
  store::PricePoint point(const Record& record) const;

  std::size_t run_points_;
  std::size_t total_ = 0;
  std::vector<Record> records_;
  std::vector<std::string> sources_;
  std::unordered_map<std::string, std::uint32_t> source_ids_;
  std::FILE* file_ = nullptr;
  std::vector<Run> runs_;
};

}  // namespace skinpulse::ingest
