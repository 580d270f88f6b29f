#include "catalog/CatalogFile.hpp"

#include "skinpulse/sdk/variants.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <fstream>
#include <stdexcept>
#include <unordered_set>

namespace skinpulse::catalog {
namespace {

std::string stringField(const Poco::JSON::Object& object, const char* name) {
  return object.has(name) && !object.isNull(name) ? object.getValue<std::string>(name)
                                                  : std::string();
}

// A variant line (docs/api.md §18) names one of the variants of its finish, exactly as
// sdk/variants.hpp spells it, and follows its base line.
void checkVariant(const store::CatalogEntry& entry, const std::unordered_set<std::string>& seen) {
  const auto* finish = sdk::variantFinish(entry.skin_name);
  if (finish == nullptr) {
    throw std::runtime_error("variant '" + entry.variant + "' on skin '" + entry.skin_name +
                             "', which has no variants");
  }
  bool known = false;
  for (std::size_t i = 0; i < finish->count; ++i)
    known = known || finish->variants[i] == entry.variant;
  if (!known) {
    throw std::runtime_error("'" + entry.variant + "' is not a variant of " +
                             std::string(finish->finish));
  }
  if (seen.count(entry.market_hash_name + '\x1f') == 0) {
    throw std::runtime_error("variant '" + entry.variant + "' before its base line '" +
                             entry.market_hash_name + "'");
  }
}

}  // namespace

std::vector<store::CatalogEntry> readCatalogFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("catalogue file " + path + ": cannot be read");
  std::vector<store::CatalogEntry> entries;
  // Items seen so far, by name then "\x1f" then variant ('' for the base).
  std::unordered_set<std::string> seen;
  std::string line;
  int number = 0;
  Poco::JSON::Parser parser;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::string where = "catalogue file " + path + ":" + std::to_string(number);
    try {
      parser.reset();
      const auto object = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
      store::CatalogEntry entry;
      entry.market_hash_name = stringField(*object, "market_hash_name");
      entry.weapon_type = stringField(*object, "weapon_type");
      entry.skin_name = stringField(*object, "skin_name");
      entry.rarity = stringField(*object, "rarity");
      entry.stattrak = object->has("stattrak") && object->getValue<bool>("stattrak");
      entry.image_url = stringField(*object, "image_url");
      entry.variant = stringField(*object, "variant");
      if (entry.market_hash_name.empty()) throw std::runtime_error("no market_hash_name");
      if (!entry.variant.empty()) checkVariant(entry, seen);
      if (!seen.insert(entry.market_hash_name + '\x1f' + entry.variant).second) {
        throw std::runtime_error("duplicate market_hash_name '" + entry.market_hash_name + "'" +
                                 (entry.variant.empty() ? "" : " variant '" + entry.variant + "'"));
      }
      entries.push_back(std::move(entry));
    } catch (const Poco::Exception& error) {
      throw std::runtime_error(where + ": " + error.displayText());
    } catch (const std::exception& error) {
      throw std::runtime_error(where + ": " + error.what());
    }
  }
  return entries;
}

}  // namespace skinpulse::catalog
