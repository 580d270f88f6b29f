#include "catalog/ItemName.hpp"

#include "skinpulse/sdk/variants.hpp"

#include <Poco/UTF8Encoding.h>

#include <array>

namespace skinpulse::catalog {
namespace {

constexpr std::string_view kStar = "\xE2\x98\x85 ";              // "★ "
constexpr std::string_view kStatTrak = "StatTrak\xE2\x84\xA2 ";  // "StatTrak™ "
constexpr std::string_view kSouvenir = "Souvenir ";
constexpr std::string_view kSeparator = " | ";

constexpr std::array<std::string_view, 5> kWears = {"Factory New", "Minimal Wear", "Field-Tested",
                                                    "Well-Worn", "Battle-Scarred"};

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Valid UTF-8 without control characters (C0, DEL, C1) or other invisible formatting
// that no item name contains.
bool printableUtf8(std::string_view text) {
  Poco::UTF8Encoding utf8;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const int length = utf8.sequenceLength(p, static_cast<int>(end - p));
    if (length <= 0 || p + length > end || !utf8.isLegal(p, length)) return false;
    const int code = utf8.queryConvert(p, length);
    if (code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0xFFFD ||
        (code >= 0x200B && code <= 0x200F) || (code >= 0x2028 && code <= 0x202E) ||
        code == 0xFEFF) {
      return false;
    }
    p += length;
  }
  return true;
}

std::string_view trailingWear(std::string_view name) {
  for (std::string_view wear : kWears) {
    const std::size_t size = wear.size() + 3;  // " (" wear ")"
    if (name.size() > size && name.substr(name.size() - size, 2) == " (" &&
        name.substr(name.size() - wear.size() - 1, wear.size()) == wear && name.back() == ')') {
      return wear;
    }
  }
  return {};
}

}  // namespace

std::optional<std::string_view> junkNameReason(std::string_view name) {
  if (name.empty()) return "empty name";
  if (name.size() > kMaxItemNameBytes) return "name over 256 bytes";
  if (name.front() == '#') return "name is a localisation token";
  if (!printableUtf8(name)) return "name not printable UTF-8";
  if (name.front() == ' ' || name.back() == ' ' || name.find("  ") != std::string_view::npos) {
    return "name does not parse";
  }
  int depth = 0;
  bool letter = false;
  for (const char c : name) {
    if (c == '<' || c == '>' || c == '{' || c == '}' || c == '[' || c == ']' || c == '"' ||
        c == '\\' || c == '`') {
      return "name does not parse";
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return "name does not parse";
    letter = letter || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
             (static_cast<unsigned char>(c) >= 0x80);
  }
  if (depth != 0 || !letter) return "name does not parse";
  // Every " | " part has something in it, and no bare '|' hides elsewhere.
  std::size_t begin = 0;
  while (true) {
    const std::size_t at = name.find('|', begin);
    if (at == std::string_view::npos) break;
    if (at < 1 || at + 2 > name.size() || name.substr(at - 1, 3) != kSeparator) {
      return "name does not parse";
    }
    if (begin != 0 && at < begin + 2) return "name does not parse";  // "A | | B"
    begin = at + 2;
  }
  std::string_view rest = name;
  if (startsWith(rest, kStar)) rest.remove_prefix(kStar.size());
  if (startsWith(rest, kStatTrak)) {
    rest.remove_prefix(kStatTrak.size());
  } else if (startsWith(rest, kSouvenir)) {
    rest.remove_prefix(kSouvenir.size());
  }
  if (rest.empty() || rest.front() == ' ' || startsWith(rest, "| ")) return "name does not parse";
  return std::nullopt;
}

std::optional<ParsedItemName> parseItemName(std::string_view name) {
  if (junkNameReason(name)) return std::nullopt;
  ParsedItemName parsed;
  std::string_view rest = name;
  if (startsWith(rest, kStar)) {
    parsed.star = true;
    rest.remove_prefix(kStar.size());
  }
  if (startsWith(rest, kStatTrak)) {
    parsed.stattrak = true;
    rest.remove_prefix(kStatTrak.size());
  } else if (startsWith(rest, kSouvenir)) {
    parsed.souvenir = true;
    rest.remove_prefix(kSouvenir.size());
  }
  const std::string_view wear = trailingWear(rest);
  if (!wear.empty()) {
    parsed.wear = wear;
    rest.remove_suffix(wear.size() + 3);
  }
  const std::size_t pipe = rest.find(kSeparator);
  if (pipe == std::string_view::npos) {
    parsed.weapon_type = rest;
  } else {
    parsed.weapon_type = rest.substr(0, pipe);
    parsed.skin_name = rest.substr(pipe + kSeparator.size());
  }
  return parsed;
}

std::optional<std::string_view> variantOfPaintIndex(std::int64_t paint_index,
                                                    std::string_view market_hash_name) {
  const auto parsed = parseItemName(market_hash_name);
  if (!parsed) return std::nullopt;
  for (const auto& entry : sdk::kPaintIndexVariants) {
    if (entry.paint_index == paint_index && entry.finish == parsed->skin_name) {
      return entry.variant;
    }
  }
  return std::nullopt;
}

}  // namespace skinpulse::catalog
