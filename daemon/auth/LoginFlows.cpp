#include "auth/LoginFlows.hpp"

#include "common/Json.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

namespace skinpulse::auth {

std::string LoginFlows::key(const http::SessionContext& session, const std::string& name) {
  // session.key is already a hash of the id: the flow is bound to this session only.
  return "authflow:" + session.key + ":" + name;
}

void LoginFlows::put(const http::SessionContext& session, const std::string& name,
                     const sdk::Fields& flow) const {
  common::JsonWriter json;
  json.beginArray();
  for (const auto& [field, value] : flow) json.beginArray().value(field).value(value).endArray();
  json.endArray();
  store_.set(key(session, name), json.take(), state::Ttl(kLifetimeSeconds * 1000));
}

std::optional<sdk::Fields> LoginFlows::take(const http::SessionContext& session,
                                            const std::string& name) const {
  if (!session.active()) return std::nullopt;
  const auto stored = store_.take(key(session, name));
  if (!stored) return std::nullopt;
  try {
    const auto pairs = Poco::JSON::Parser().parse(*stored).extract<Poco::JSON::Array::Ptr>();
    sdk::Fields flow;
    for (std::size_t i = 0; i < pairs->size(); ++i) {
      const auto pair = pairs->getArray(static_cast<unsigned>(i));
      if (!pair || pair->size() != 2) return std::nullopt;
      flow.emplace_back(pair->getElement<std::string>(0), pair->getElement<std::string>(1));
    }
    return flow;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace skinpulse::auth
