#include "portfolio/InventoryPageApplied.hpp"

#include <Poco/UTF8Encoding.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace skinpulse::portfolio {

namespace {

// A real block is about 300 bytes per picture (a CDN url and a title); five stickers stay
// under 2 KiB. Anything far beyond is not the platform's block and is not read.
constexpr std::size_t kMaxAppliedHtml = 16 * 1024;
// A weapon carries at most five stickers and one charm; a little room for what comes next.
constexpr std::size_t kMaxAppliedPictures = 8;
// The longest real sticker name is under 80 bytes.
constexpr std::size_t kMaxAppliedName = 200;
// "Sticker", "Charm", "Souvenir Charm", "Patch", "Sticker Slab".
constexpr std::size_t kMaxAppliedPrefix = 32;

char appliedLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// Case-insensitive search for an ASCII needle (html tag and attribute names).
std::size_t appliedFindNoCase(std::string_view haystack, std::string_view needle,
                              std::size_t from = 0) {
  if (needle.empty() || haystack.size() < needle.size()) return std::string_view::npos;
  for (std::size_t i = from; i + needle.size() <= haystack.size(); ++i) {
    std::size_t j = 0;
    while (j < needle.size() && appliedLower(haystack[i + j]) == appliedLower(needle[j])) ++j;
    if (j == needle.size()) return i;
  }
  return std::string_view::npos;
}

bool isAppliedSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// A decoded reference's code point as UTF-8 (Poco's encoder; the code point was checked
// by appliedNumericEntity or comes from the named table).
void appendAppliedUtf8(std::string& out, std::uint32_t code) {
  unsigned char bytes[4];
  const int length =
      Poco::UTF8Encoding().convert(static_cast<int>(code), bytes, static_cast<int>(sizeof bytes));
  if (length > 0 && length <= static_cast<int>(sizeof bytes)) {
    out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(length));
  }
}

/// A numeric character reference's code point ("#39", "#x27"), or 0 when it is not one
/// that can stand in a name (malformed, a control character, a surrogate, out of range).
std::uint32_t appliedNumericEntity(std::string_view body) {
  if (body.size() < 2 || body[0] != '#') return 0;
  const bool hex = body[1] == 'x' || body[1] == 'X';
  const std::string_view digits = body.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 6) return 0;
  std::uint32_t code = 0;
  for (const char c : digits) {
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<std::uint32_t>(c - '0');
    } else if (hex && appliedLower(c) >= 'a' && appliedLower(c) <= 'f') {
      digit = static_cast<std::uint32_t>(appliedLower(c) - 'a' + 10);
    } else {
      return 0;
    }
    code = code * (hex ? 16 : 10) + digit;
  }
  if (code < 0x20 || code == 0x7F || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
    return 0;
  }
  return code;
}

/// Decodes the character references a title or caption may carry; an unknown one is kept
/// as written (the platform writes names plainly, so this only matters for odd bodies).
std::string decodeAppliedEntities(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const std::size_t end = text.find(';', i + 1);
    if (end == std::string_view::npos || end - i > 10) {
      out += '&';
      continue;
    }
    const std::string_view body = text.substr(i + 1, end - i - 1);
    std::uint32_t code = 0;
    if (body == "amp")
      code = '&';
    else if (body == "lt")
      code = '<';
    else if (body == "gt")
      code = '>';
    else if (body == "quot")
      code = '"';
    else if (body == "apos")
      code = '\'';
    else if (body == "nbsp")
      code = ' ';
    else
      code = appliedNumericEntity(body);
    if (code == 0) {
      out += '&';
      continue;
    }
    appendAppliedUtf8(out, code);
    i = end;
  }
  return out;
}

std::string_view trimAppliedSpace(std::string_view text) {
  while (!text.empty() && isAppliedSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isAppliedSpace(text.back())) text.remove_suffix(1);
  return text;
}

/// The end of the tag that starts at `open` ('<'): the '>' outside quoted attribute values,
/// or npos when the tag never closes.
std::size_t appliedTagEnd(std::string_view html, std::size_t open) {
  char quote = 0;
  for (std::size_t i = open + 1; i < html.size(); ++i) {
    const char c = html[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  return std::string_view::npos;
}

/// One attribute's value inside a tag's text (between "<img" and '>'), raw; empty optional
/// when the tag has no such attribute.
std::optional<std::string_view> appliedAttribute(std::string_view tag, std::string_view name) {
  std::size_t i = 0;
  while (i < tag.size()) {
    while (i < tag.size() && (isAppliedSpace(tag[i]) || tag[i] == '/')) ++i;
    const std::size_t name_start = i;
    while (i < tag.size() && !isAppliedSpace(tag[i]) && tag[i] != '=' && tag[i] != '/') ++i;
    const std::string_view attribute = tag.substr(name_start, i - name_start);
    while (i < tag.size() && isAppliedSpace(tag[i])) ++i;
    std::string_view value;
    if (i < tag.size() && tag[i] == '=') {
      ++i;
      while (i < tag.size() && isAppliedSpace(tag[i])) ++i;
      if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
        const char quote = tag[i++];
        const std::size_t end = tag.find(quote, i);
        const std::size_t stop = end == std::string_view::npos ? tag.size() : end;
        value = tag.substr(i, stop - i);
        i = end == std::string_view::npos ? tag.size() : end + 1;
      } else {
        const std::size_t value_start = i;
        while (i < tag.size() && !isAppliedSpace(tag[i])) ++i;
        value = tag.substr(value_start, i - value_start);
      }
    }
    if (attribute.empty()) {
      ++i;  // a stray character: step over it rather than loop
      continue;
    }
    if (attribute.size() == name.size() && appliedFindNoCase(attribute, name) == 0) return value;
  }
  return std::nullopt;
}

/// The `title` of each picture in the block, in order (empty optional for a picture
/// without one); empty optional when there are more pictures than a block can hold.
std::optional<std::vector<std::optional<std::string>>> appliedPictureTitles(std::string_view html) {
  std::vector<std::optional<std::string>> titles;
  std::size_t at = 0;
  while ((at = appliedFindNoCase(html, "<img", at)) != std::string_view::npos) {
    const std::size_t after = at + 4;
    if (after < html.size() && !isAppliedSpace(html[after]) && html[after] != '>' &&
        html[after] != '/') {
      at = after;  // "<imgx": not a picture
      continue;
    }
    if (titles.size() == kMaxAppliedPictures) return std::nullopt;
    const std::size_t end = appliedTagEnd(html, at);
    const std::string_view tag =
        html.substr(after, (end == std::string_view::npos ? html.size() : end) - after);
    const auto title = appliedAttribute(tag, "title");
    titles.push_back(title ? std::optional<std::string>(decodeAppliedEntities(*title))
                           : std::nullopt);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return titles;
}

/// The caption under the pictures ("Sticker: A, B"): the text after the block's last
/// `<br>`, tags dropped, references decoded, trimmed.
std::string appliedCaption(std::string_view html) {
  std::size_t last = std::string_view::npos;
  for (std::size_t at = 0; (at = appliedFindNoCase(html, "<br", at)) != std::string_view::npos;
       ++at) {
    last = at;
  }
  if (last == std::string_view::npos) return {};
  const std::size_t close = appliedTagEnd(html, last);
  if (close == std::string_view::npos) return {};
  std::string text;
  bool in_tag = false;
  for (std::size_t i = close + 1; i < html.size(); ++i) {
    if (html[i] == '<')
      in_tag = true;
    else if (html[i] == '>')
      in_tag = false;
    else if (!in_tag)
      text += html[i];
  }
  return std::string(trimAppliedSpace(decodeAppliedEntities(text)));
}

bool isAppliedPrefixText(std::string_view prefix) {
  if (prefix.empty() || prefix.size() > kMaxAppliedPrefix) return false;
  for (const char c : prefix) {
    const char lower = appliedLower(c);
    if (!(lower >= 'a' && lower <= 'z') && c != ' ') return false;
  }
  return prefix.front() != ' ' && prefix.back() != ' ';
}

/// Splits "Prefix: rest" into its parts; an empty prefix when the text has none.
std::pair<std::string_view, std::string_view> splitAppliedPrefix(std::string_view text) {
  // "Sticker: " trimmed is "Sticker:": a prefix with nothing after it, not a name.
  const std::size_t colon = text.find(':');
  const bool separated =
      colon != std::string_view::npos && (colon + 1 == text.size() || text[colon + 1] == ' ');
  if (separated && isAppliedPrefixText(text.substr(0, colon))) {
    return {text.substr(0, colon), text.substr(std::min(colon + 2, text.size()))};
  }
  return {std::string_view(), text};
}

/// "Prefix | name" when `name` can stand as an item's name, else empty.
std::string appliedMarketName(std::string_view prefix, std::string_view name) {
  name = trimAppliedSpace(name);
  if (name.empty() || name.size() > kMaxAppliedName) return {};
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) return {};
  }
  return std::string(prefix) + " | " + std::string(name);
}

const char* defaultAppliedPrefix(AppliedBlockKind kind) {
  return kind == AppliedBlockKind::kSticker ? "Sticker" : "Charm";
}

/// The caption's list split at the commas that separate names: a comma inside parentheses
/// belongs to a name ("rain (Glitter, Champion) | Antwerp 2022"). A name with a bare comma
/// ("Don't Worry, I'm Pro") splits in two, which the caller notices by the count.
std::vector<std::string_view> splitAppliedCaption(std::string_view list) {
  std::vector<std::string_view> names;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '(')
      ++depth;
    else if (list[i] == ')' && depth > 0)
      --depth;
    else if (list[i] == ',' && depth == 0) {
      names.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  names.push_back(list.substr(start));
  return names;
}

const char* appliedKindName(AppliedBlockKind kind) {
  return kind == AppliedBlockKind::kSticker ? "sticker" : "charm";
}

}  // namespace

std::optional<AppliedBlockKind> appliedBlockKind(std::string_view entry_name, bool has_name,
                                                 std::string_view html) {
  if (has_name) {
    if (entry_name == "sticker_info") return AppliedBlockKind::kSticker;
    if (entry_name == "keychain_info") return AppliedBlockKind::kCharm;
    return std::nullopt;
  }
  // Bodies whose entries carry no `name` still open the block with its id.
  const std::string_view head = html.substr(0, 256);
  if (appliedFindNoCase(head, "id=\"sticker_info\"") != std::string_view::npos) {
    return AppliedBlockKind::kSticker;
  }
  if (appliedFindNoCase(head, "id=\"keychain_info\"") != std::string_view::npos) {
    return AppliedBlockKind::kCharm;
  }
  return std::nullopt;
}

std::optional<std::vector<AppliedAsset>> parseAppliedBlock(AppliedBlockKind kind,
                                                           std::string_view html) {
  if (html.size() > kMaxAppliedHtml) return std::nullopt;
  const auto titles = appliedPictureTitles(html);
  if (!titles) return std::nullopt;

  std::vector<std::string> names;
  bool every_title = !titles->empty();
  for (const auto& title : *titles) every_title = every_title && title.has_value();
  if (every_title) {
    for (const auto& title : *titles) {
      const auto [prefix, rest] = splitAppliedPrefix(trimAppliedSpace(*title));
      names.push_back(
          appliedMarketName(prefix.empty() ? defaultAppliedPrefix(kind) : prefix, rest));
    }
  } else {
    const std::string caption = appliedCaption(html);
    if (caption.empty()) {
      // No picture and no caption: an empty block, nothing applied. Pictures without
      // a caption to name them cannot be read.
      if (titles->empty()) return std::vector<AppliedAsset>{};
      return std::nullopt;
    }
    const auto [prefix, list] = splitAppliedPrefix(caption);
    const auto pieces = splitAppliedCaption(list);
    if (pieces.size() != titles->size()) return std::nullopt;
    for (const auto piece : pieces) {
      names.push_back(
          appliedMarketName(prefix.empty() ? defaultAppliedPrefix(kind) : prefix, piece));
    }
  }

  std::vector<AppliedAsset> applied;
  applied.reserve(names.size());
  for (std::size_t slot = 0; slot < names.size(); ++slot) {
    if (names[slot].empty()) return std::nullopt;
    applied.push_back(AppliedAsset{appliedKindName(kind), static_cast<int>(slot), names[slot]});
  }
  return applied;
}

}  // namespace skinpulse::portfolio
