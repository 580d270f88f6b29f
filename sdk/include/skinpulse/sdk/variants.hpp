#pragma once

// Item variants (docs/api.md §18): the one table of which market_hash_names hide several
// priced variants and how an item's paint index names its variant. Header-only and
// standard-library only, so that plugins (a listing's paint index), the daemon (an
// inventory asset's paint index) and tests read the same facts. The catalogue generator
// (tools/catalog/) writes one variant item per entry of kVariantFinishes; a test holds the
// shipped catalogue to this table.
//
// Evidence (checked 2026-11-28): the paint indexes are the game's own paint kits
// (am_ruby_marbleized = 415 … am_gamma_doppler_phase4 = 572, the "_b" and "_widow" Doppler
// kits of the newer knives, the Glock-18's Gamma Doppler kits 1119–1123) as public
// phase detectors and typed price clients list them; Skinport's /v1/items names the same
// variants in its `version` field (docs/upstreams.md, "Variants").

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::sdk {

/// The variant names, exactly as the catalogue and the API spell them.
inline constexpr std::array<std::string_view, 8> kVariantNames = {
    "Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl", "Emerald"};

/// A finish whose items come in variants, and which ones.
struct VariantFinish {
  std::string_view finish;  ///< the skin name without its exterior: "Doppler"
  std::array<std::string_view, 7> variants;
  std::size_t count;
};

inline constexpr std::array<VariantFinish, 2> kVariantFinishes = {{
    {"Doppler", {"Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl"}, 7},
    {"Gamma Doppler", {"Phase 1", "Phase 2", "Phase 3", "Phase 4", "Emerald", {}, {}}, 5},
}};

struct PaintIndexVariant {
  std::int32_t paint_index;
  std::string_view finish;
  std::string_view variant;
};

/// Every paint kit of a variant finish.
inline constexpr std::array<PaintIndexVariant, 24> kPaintIndexVariants = {{
    {415, "Doppler", "Ruby"},
    {416, "Doppler", "Sapphire"},
    {417, "Doppler", "Black Pearl"},
    {418, "Doppler", "Phase 1"},
    {419, "Doppler", "Phase 2"},
    {420, "Doppler", "Phase 3"},
    {421, "Doppler", "Phase 4"},
    {568, "Gamma Doppler", "Emerald"},
    {569, "Gamma Doppler", "Phase 1"},
    {570, "Gamma Doppler", "Phase 2"},
    {571, "Gamma Doppler", "Phase 3"},
    {572, "Gamma Doppler", "Phase 4"},
    {617, "Doppler", "Black Pearl"},  // the "_b" kits of newer knives
    {618, "Doppler", "Phase 2"},
    {619, "Doppler", "Sapphire"},
    {852, "Doppler", "Phase 1"},  // the "_widow" kits of newer knives
    {853, "Doppler", "Phase 2"},
    {854, "Doppler", "Phase 3"},
    {855, "Doppler", "Phase 4"},
    {1119, "Gamma Doppler", "Emerald"},  // Glock-18 | Gamma Doppler
    {1120, "Gamma Doppler", "Phase 1"},
    {1121, "Gamma Doppler", "Phase 2"},
    {1122, "Gamma Doppler", "Phase 3"},
    {1123, "Gamma Doppler", "Phase 4"},
}};

/// The variant a paint index names ("Ruby"), or nullopt for any other paint kit.
constexpr std::optional<std::string_view> variantOfPaintIndex(std::int64_t paint_index) {
  for (const PaintIndexVariant& entry : kPaintIndexVariants) {
    if (entry.paint_index == paint_index) return entry.variant;
  }
  return std::nullopt;
}

/// The variant named by `text`, compared without regard to ASCII case and with '_', '-'
/// or no separator standing for the space ("ruby", "Phase2", "black_pearl", "PHASE 3"):
/// markets spell their variant fields in these ways. nullopt when it names none.
constexpr std::optional<std::string_view> variantNamed(std::string_view text) {
  auto fold = [](char c) -> char { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
  auto separator = [](char c) { return c == ' ' || c == '_' || c == '-'; };
  for (std::string_view name : kVariantNames) {
    std::size_t i = 0;
    std::size_t j = 0;
    bool same = true;
    while (same && (i < text.size() || j < name.size())) {
      if (i < text.size() && separator(text[i])) {
        ++i;
      } else if (j < name.size() && name[j] == ' ') {
        ++j;
      } else if (i < text.size() && j < name.size() && fold(text[i]) == fold(name[j])) {
        ++i;
        ++j;
      } else {
        same = false;
      }
    }
    if (same) return name;
  }
  return std::nullopt;
}

/// The variants of a skin name ("Doppler", "Gamma Doppler"); nullptr for any other.
constexpr const VariantFinish* variantFinish(std::string_view skin_name) {
  for (const VariantFinish& entry : kVariantFinishes) {
    if (entry.finish == skin_name) return &entry;
  }
  return nullptr;
}

}  // namespace skinpulse::sdk
