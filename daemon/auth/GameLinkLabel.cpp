#include "auth/GameLinkLabel.hpp"

#include "common/JsonBody.hpp"

#include <cstdint>

namespace skinpulse::auth {
namespace {

// Decodes one UTF-8 sequence at `at`; 0 on an invalid one (overlong, surrogate, past
// U+10FFFF, cut short), else its length with the code point in `out`.
std::size_t decodeLabelCodePoint(std::string_view text, std::size_t at, std::uint32_t& out) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead < 0x80) {
    out = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, min = 0x80, out = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, min = 0x800, out = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, min = 0x10000, out = lead & 0x07;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[at + i]);
    if ((next & 0xC0) != 0x80) return 0;
    out = (out << 6) | (next & 0x3F);
  }
  if (out < min || out > 0x10FFFF || (out >= 0xD800 && out <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

bool isPrintableLabel(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::uint32_t code_point = 0;
    const std::size_t length = decodeLabelCodePoint(text, at, code_point);
    if (length == 0) return false;
    if (code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F)) return false;
    if (++chars > max_chars) return false;
    at += length;
  }
  return true;
}

std::string parseGameLinkLabel(std::string_view body) {
  const auto object = common::parseObjectBody(body);
  for (const auto& [name, value] : *object) {
    (void)value;
    // A hostile name is cut short: the detail echoes it.
    if (name != "label") throw common::InvalidField(name.substr(0, 64), "is not a field (label)");
  }
  if (!object->has("label")) throw common::InvalidField("label", "is required");
  const auto value = object->get("label");
  if (!value.isString()) throw common::InvalidField("label", "must be a string");
  std::string label = value.extract<std::string>();
  if (!isPrintableLabel(label, kMaxGameLinkLabelChars)) {
    throw common::InvalidField("label", "must be at most " +
                                            std::to_string(kMaxGameLinkLabelChars) +
                                            " printable characters of UTF-8");
  }
  return label;
}

}  // namespace skinpulse::auth
