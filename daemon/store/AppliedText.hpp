#pragma once

// What is applied to a holding, as the store keeps it (docs/adr/0030-portfolio-depth.md):
// `applied_key`, the canonical text that is part of a holding's identity, and `applied`,
// the JSON the answers are built from.

#include "store/Records.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::store {

/// The canonical key: one entry per applied thing, stickers by slot then charms by slot,
/// `s<slot>=<item_id>` / `c<slot>=<item_id>`, or `=n:<name>` in place of `=<item_id>`
/// when there is no catalogue item; joined by ';'. Empty when nothing is applied. The
/// order of `applied` does not matter.
std::string appliedKeyOf(const std::vector<AppliedRecord>& applied);

/// `applied` in the key's order, stickers then charms by slot.
std::vector<AppliedRecord> canonicalApplied(std::vector<AppliedRecord> applied);

/// `[{"kind":"sticker","slot":0,"name":"…","item_id":5012|null}, …]` ("[]" when empty).
std::string appliedJsonOf(const std::vector<AppliedRecord>& applied);

/// The inverse of appliedJsonOf. Text the store did not write (not an array of such
/// objects) gives an empty list rather than an exception: a holding is still shown.
std::vector<AppliedRecord> appliedFromJson(std::string_view json);

}  // namespace skinpulse::store
