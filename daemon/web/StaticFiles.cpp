#include "web/StaticFiles.hpp"

#include "http/PreparedBody.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace skinpulse::web {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string contentTypeOf(std::string_view name) {
  static const std::array<std::pair<std::string_view, std::string_view>, 16> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json; charset=utf-8"},
      {".map", "application/json; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/markdown; charset=utf-8"},
      {".webmanifest", "application/manifest+json"},
  }};
  const std::string file = lower(name.substr(name.rfind('/') + 1));
  const auto dot = file.rfind('.');
  if (dot == std::string::npos) {
    // LICENSE, README and the like.
    return file == "license" || file == "readme" ? "text/plain; charset=utf-8"
                                                 : "application/octet-stream";
  }
  const std::string_view ext = std::string_view(file).substr(dot);
  for (const auto& [suffix, type] : kTypes) {
    if (ext == suffix) return std::string(type);
  }
  return "application/octet-stream";
}

bool isContentHashed(std::string_view name) {
  name = name.substr(name.rfind('/') + 1);
  std::size_t start = 0;
  while (start < name.size()) {
    std::size_t end = name.find('.', start);
    if (end == std::string_view::npos) break;  // the last part is the extension
    const std::string_view part = name.substr(start, end - start);
    if (start > 0 && part.size() >= 8 && std::all_of(part.begin(), part.end(), isHex) &&
        std::any_of(part.begin(), part.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

// The rules live in http/PreparedBody (one tag format, one Accept-Encoding and
// If-None-Match reading for the API's prepared bodies and the dashboard's files).
std::string strongEtag(std::string_view bytes) { return '"' + http::contentTag(bytes) + '"'; }

bool etagMatches(std::string_view header, std::string_view etag) {
  return http::ifNoneMatchMatches(header, etag);
}

bool acceptsEncoding(std::string_view header, std::string_view coding) {
  return http::acceptsCoding(header, coding);
}

std::optional<fs::path> resolveUnder(const fs::path& root, std::string_view relative) {
  if (relative.empty() || relative.size() > 512) return std::nullopt;
  fs::path out = root;
  std::string_view rest = relative;
  while (true) {
    const auto slash = rest.find('/');
    const std::string_view segment = rest.substr(0, slash);
    if (segment.empty() || segment.front() == '.') return std::nullopt;  // "", ".", "..", dot files
    for (char c : segment) {
      if (c == '\\' || c == '\0' || static_cast<unsigned char>(c) < 0x20) return std::nullopt;
    }
    out /= std::string(segment);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  // A symbolic link inside the tree must not lead out of it.
  std::error_code error;
  const fs::path real = fs::canonical(out, error);
  if (error) return std::nullopt;
  const fs::path real_root = fs::canonical(root, error);
  if (error) return std::nullopt;
  const auto mismatch = std::mismatch(real_root.begin(), real_root.end(), real.begin(), real.end());
  if (mismatch.first != real_root.end()) return std::nullopt;
  return real;
}

StaticFiles::StaticFiles(fs::path root) : root_(std::move(root)) {}

std::shared_ptr<const StaticFiles::Entry> StaticFiles::load(const fs::path& path) const {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return nullptr;
  const auto size = fs::file_size(path, error);
  if (error) return nullptr;
  const auto mtime = fs::last_write_time(path, error);
  if (error) return nullptr;
  const std::string key = path.string();
  {
    std::lock_guard lock(mutex_);
    const auto it = cache_.find(key);
    if (it != cache_.end() && it->second->size == size && it->second->mtime == mtime) {
      return it->second;
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto entry = std::make_shared<Entry>();
  entry->size = size;
  entry->mtime = mtime;
  entry->body = std::make_shared<const std::string>(bytes.str());
  entry->etag = strongEtag(*entry->body);
  std::lock_guard lock(mutex_);
  cache_[key] = entry;
  return entry;
}

bool StaticFiles::serve(const http::Request& request, std::string_view relative,
                        http::Response& response) const {
  const auto path = resolveUnder(root_, relative);
  if (!path) return false;
  auto entry = load(*path);
  if (!entry) return false;

  // A precompressed sibling when the client takes it: br first, then gzip.
  std::string encoding;
  const std::string accept = request.header("Accept-Encoding").value_or("");
  for (const char* coding : {"br", "gzip"}) {
    if (!acceptsEncoding(accept, coding)) continue;
    const std::string suffix = std::string(coding) == "br" ? ".br" : ".gz";
    const auto sibling = resolveUnder(root_, std::string(relative) + suffix);
    if (!sibling) continue;
    if (auto compressed = load(*sibling)) {
      entry = std::move(compressed);
      encoding = coding;
      break;
    }
  }
  const bool has_siblings =
      fs::exists(path->string() + ".br") || fs::exists(path->string() + ".gz");

  response.headers.clear();
  response.setHeader("ETag", entry->etag);
  response.setHeader("Cache-Control", isContentHashed(relative)
                                          ? "public, max-age=31536000, immutable"
                                          : "no-cache");
  if (has_siblings) response.setHeader("Vary", "Accept-Encoding");
  const auto if_none_match = request.header("If-None-Match");
  if (if_none_match && etagMatches(*if_none_match, entry->etag)) {
    response.status = 304;
    response.content_type.clear();
    response.body.clear();
    response.shared_body.reset();
    return true;
  }
  response.status = 200;
  response.content_type = contentTypeOf(relative);
  if (!encoding.empty()) response.setHeader("Content-Encoding", encoding);
  response.body.clear();
  response.shared_body = entry->body;
  return true;
}

}  // namespace skinpulse::web
