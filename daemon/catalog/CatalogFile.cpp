#include "catalog/CatalogFile.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <fstream>
#include <stdexcept>
#include <unordered_set>

namespace skinpulse {
namespace {

std::string stringField(const Poco::JSON::Object& object, const char* name) {
  return object.has(name) && !object.isNull(name) ? object.getValue<std::string>(name)
                                                  : std::string();
}

}  // namespace

std::vector<CatalogEntry> readCatalogFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("catalogue file " + path + ": cannot be read");
  std::vector<CatalogEntry> entries;
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
      CatalogEntry entry;
      entry.market_hash_name = stringField(*object, "market_hash_name");
      entry.weapon_type = stringField(*object, "weapon_type");
      entry.skin_name = stringField(*object, "skin_name");
      entry.rarity = stringField(*object, "rarity");
      entry.stattrak = object->has("stattrak") && object->getValue<bool>("stattrak");
      entry.image_url = stringField(*object, "image_url");
      if (entry.market_hash_name.empty()) throw std::runtime_error("no market_hash_name");
      if (!seen.insert(entry.market_hash_name).second) {
        throw std::runtime_error("duplicate market_hash_name '" + entry.market_hash_name + "'");
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

}  // namespace skinpulse
