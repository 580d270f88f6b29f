#pragma once

// NameSightings: which source instances reported which names the catalogue lacks, for
// [catalog] auto_add (docs/api.md §18): a name joins the catalogue once at least
// `min_sources` distinct instances reported it within `window_seconds`. One source
// repeating a name (a typo, a listing of its own) is never enough when min_sources > 1.
//
// Memory is bounded whatever the sources send: at most `max_names` names are tracked (the
// least recently seen are forgotten first) and each keeps at most `min_sources` sources.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skinpulse::catalog {

class NameSightings {
 public:
  static constexpr std::int64_t kDefaultWindowSeconds = 24 * 3600;
  static constexpr std::size_t kDefaultMaxNames = 50'000;

  explicit NameSightings(std::size_t min_sources,
                         std::int64_t window_seconds = kDefaultWindowSeconds,
                         std::size_t max_names = kDefaultMaxNames);

  /// `source` reported `names` at `now` (Unix seconds). Returns the names that have now
  /// been reported by min_sources instances within the window, in the order given; they
  /// are forgotten (each is returned once: the caller adds it).
  std::vector<std::string> record(std::string_view source, const std::vector<std::string>& names,
                                  std::int64_t now);

  std::size_t size() const { return names_.size(); }
  std::size_t minSources() const { return min_sources_; }

 private:
  struct Sighting {
    std::string source;
    std::int64_t at = 0;
  };
  struct Entry {
    std::vector<Sighting> sources;  ///< distinct, at most min_sources_
    std::int64_t last_seen = 0;
  };

  /// Forgets sightings older than the window; then, above max_names_, the least recently
  /// seen names until a tenth of the room is free (so the sort is rare).
  void prune(std::int64_t now);

  std::size_t min_sources_;
  std::int64_t window_seconds_;
  std::size_t max_names_;
  std::unordered_map<std::string, Entry> names_;
};

}  // namespace skinpulse::catalog
