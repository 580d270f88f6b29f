#pragma once

// StaticFiles: the files of the dashboard (share/www) as HTTP representations
// (docs/api.md §9): Content-Type from the extension, a strong ETag from the bytes,
// 304 on a matching If-None-Match, `immutable` caching for content-hashed names and
// `no-cache` for the rest, a `.br` or `.gz` sibling when the client accepts it, and
// nothing outside the root (no "..", no dot files, no symlink leading out).
//
// Files are read on first use and kept until their size or modification time changes,
// so a dev run picks up edited pages on reload. Thread-safe.

#include "http/Request.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::web {

/// The Content-Type of a file name by its extension (application/octet-stream if unknown).
std::string contentTypeOf(std::string_view name);

/// True for a file name carrying a content hash: a dot-separated part after the first of
/// 8+ hex digits, at least one a decimal digit ("uPlot.3f9a1c2e.js", "app.0123abcd.css").
bool isContentHashed(std::string_view name);

/// A strong entity tag of `bytes`: a quoted hex digest.
std::string strongEtag(std::string_view bytes);

/// True when the If-None-Match header value `header` matches `etag` ("*", a list, W/).
bool etagMatches(std::string_view header, std::string_view etag);

/// Whether Accept-Encoding `header` accepts `coding` (q > 0; "*" counts).
bool acceptsEncoding(std::string_view header, std::string_view coding);

/// `relative` ("vendor/uPlot.min.js") resolved under `root`, or empty when it is not a
/// plain relative path of visible segments or leads outside `root`.
std::optional<std::filesystem::path> resolveUnder(const std::filesystem::path& root,
                                                  std::string_view relative);

class StaticFiles {
 public:
  explicit StaticFiles(std::filesystem::path root);

  const std::filesystem::path& root() const { return root_; }

  /// Fills `response` with the file `relative` for `request` (200 or 304). False when
  /// there is no such file (the caller answers 404).
  bool serve(const http::Request& request, std::string_view relative,
             http::Response& response) const;

 private:
  struct Entry {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type mtime;
    std::shared_ptr<const std::string> body;
    std::string etag;
  };

  /// The cached (or freshly read) file at `path`; null when it is not a regular file.
  std::shared_ptr<const Entry> load(const std::filesystem::path& path) const;

  std::filesystem::path root_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const Entry>> cache_;
};

}  // namespace skinpulse::web
