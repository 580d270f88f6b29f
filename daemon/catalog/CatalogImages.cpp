#include "catalog/CatalogImages.hpp"

#include "common/Log.hpp"

#include <exception>

namespace skinpulse::catalog {
namespace {

// The platform's image CDN (docs/upstreams.md §a.2 and §d.1): an icon_url is appended.
constexpr std::string_view kEconomyImageBase =
    "https://community.akamai.steamstatic.com/economy/image/";

// icon_url tokens are base64url-like; a longer or stranger one is not an icon path.
constexpr std::size_t kMaxIconTokenBytes = 1024;

bool iconTokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '/' || c == '=';
}

}  // namespace

bool usableImageUrl(std::string_view url) {
  if (url.size() < 12 || url.size() > 2048 || url.substr(0, 8) != "https://") return false;
  for (const char c : url) {
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\') return false;
  }
  return true;
}

std::string economyImageUrl(std::string_view icon_url) {
  if (icon_url.empty() || icon_url.size() > kMaxIconTokenBytes || icon_url.front() == '/')
    return {};
  if (icon_url.find("..") != std::string_view::npos) return {};
  for (const char c : icon_url) {
    if (!iconTokenChar(c)) return {};
  }
  return std::string(kEconomyImageBase) + std::string(icon_url);
}

std::size_t CatalogImages::fill(const std::vector<store::CatalogStore::ItemImage>& images,
                                std::string_view origin) {
  if (images.empty()) return 0;
  try {
    const std::size_t filled = store_.fillMissingImages(images);
    if (filled == 0) return 0;
    catalog_.reset(store_.allItems());
    log::main().info("catalogue: {} item image(s) filled from {}", filled, origin);
    return filled;
  } catch (const std::exception& error) {
    log::main().warn("catalogue: item images from {} not filled: {}", origin, error.what());
    return 0;
  }
}

}  // namespace skinpulse::catalog
