// Alert rule bodies of POST/PATCH /api/v1/alerts (docs/api.md §13): any bytes are either
// refused with MalformedBody / InvalidAlert or parsed into a rule whose stored forms
// parse back to the same rule.
#include "alerts/RuleJson.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace skinpulse::alerts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  for (const bool allow_private : {false, true}) {
    RuleInput input;
    try {
      input = parseRuleBody(body, false, ParseOptions{allow_private});
    } catch (const MalformedBody&) {
      return 0;
    } catch (const InvalidAlert&) {
      continue;
    }
    if (input.condition) {
      const auto back = storedCondition(conditionJson(*input.condition));
      if (conditionJson(back) != conditionJson(*input.condition)) std::abort();
    }
    if (input.channels) {
      if (storedChannels(storedChannelsJson(*input.channels)) != *input.channels) std::abort();
      Rule rule;
      rule.channels = *input.channels;
      skinpulse::common::JsonWriter json;
      writeRule(json, rule, true);
    }
  }
  return 0;
}
