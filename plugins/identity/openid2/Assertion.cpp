#include "Assertion.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "ClaimedId.hpp"
#include "Crypto.hpp"
#include "FieldLookup.hpp"
#include "KeyValueForm.hpp"
#include "Outcome.hpp"
#include "ResponseNonce.hpp"
#include "UrlParts.hpp"

#include <set>
#include <string_view>

namespace skinpulse::plugins::openid2 {
namespace {

using sdk::Status;

constexpr std::string_view kOpenIdPrefix = "openid.";

bool isOpenIdField(const std::string& name) { return name.rfind(kOpenIdPrefix, 0) == 0; }

AssertionCheck refused(std::string_view error_code, std::string message) {
  AssertionCheck check;
  check.refusal = identity::refusal(Status::Code::kRejected, error_code, std::move(message));
  return check;
}

std::optional<sdk::Fields> nonOpenIdParameters(const std::string& url) {
  const identity::SplitUrl parts = identity::splitUrl(url);
  if (parts.has_fragment) return std::nullopt;
  auto fields = sdk::parseQuery(parts.query);
  if (!fields) return std::nullopt;
  sdk::Fields kept;
  for (auto& field : *fields) {
    if (!isOpenIdField(field.first)) kept.push_back(std::move(field));
  }
  return kept;
}

// The openid.* parameters in order; nullopt when one is repeated (which copy the OP signed
// would be a guess).
std::optional<sdk::Fields> openIdFields(const sdk::Fields& params) {
  sdk::Fields fields;
  std::set<std::string> seen;
  for (const auto& field : params) {
    if (!isOpenIdField(field.first)) continue;
    if (!seen.insert(field.first).second) return std::nullopt;
    fields.push_back(field);
  }
  return fields;
}

std::string valueOf(const sdk::Fields& fields, std::string_view name) {
  return identity::singleField(fields, name).value_or("");
}

bool signsEverythingNeeded(const std::string& signed_list) {
  std::set<std::string> names;
  std::string_view rest = signed_list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    names.emplace(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  for (const char* needed : kMustBeSigned) {
    if (names.count(needed) == 0) return false;
  }
  return true;
}

}  // namespace

bool calledUrlMatchesReturnTo(const std::string& called_url, const std::string& return_to) {
  if (identity::splitUrl(called_url).base != identity::splitUrl(return_to).base) return false;
  const auto called = nonOpenIdParameters(called_url);
  const auto expected = nonOpenIdParameters(return_to);
  return called && expected && *called == *expected;
}

AssertionCheck checkAssertion(const OpenId2Settings& settings, const std::string& realm,
                              const sdk::Fields& params, const std::string& called_url,
                              const sdk::Fields& flow, std::int64_t now_seconds) {
  const auto expectedState = identity::singleField(flow, kStateKey);
  const auto issuedReturnTo = identity::singleField(flow, kReturnToKey);
  const auto state = identity::singleField(params, "state");
  if (!expectedState || expectedState->empty() || !issuedReturnTo || !state ||
      !identity::constantTimeEquals(*state, *expectedState)) {
    return refused(identity::kStateMismatch,
                   "state missing or not the one issued for this session");
  }
  const auto fields = openIdFields(params);
  if (!fields) return refused(identity::kVerificationFailed, "an openid.* parameter is repeated");

  const std::string mode = valueOf(*fields, "openid.mode");
  if (mode == "cancel" || mode == "error") {
    return refused(identity::kProviderError, "the provider answered mode " + mode);
  }
  if (mode != "id_res") return refused(identity::kVerificationFailed, "openid.mode is not id_res");
  if (valueOf(*fields, "openid.ns") != kOpenIdNamespace) {
    return refused(identity::kVerificationFailed, "openid.ns is not OpenID 2.0");
  }
  if (valueOf(*fields, "openid.op_endpoint") != settings.openid_url) {
    return refused(identity::kVerificationFailed, "openid.op_endpoint is not the configured OP");
  }
  const std::string returnTo = valueOf(*fields, "openid.return_to");
  if (returnTo != *issuedReturnTo || !identity::isUnderRealm(returnTo, realm) ||
      !calledUrlMatchesReturnTo(called_url, returnTo)) {
    return refused(identity::kVerificationFailed,
                   "openid.return_to is not the URL issued for this flow and called");
  }
  const std::string claimedId = valueOf(*fields, "openid.claimed_id");
  const auto platformId = platformIdOf(claimedId, settings.host);
  if (!platformId || valueOf(*fields, "openid.identity") != claimedId) {
    return refused(identity::kInvalidClaimedId, "the claimed ID breaks the claimed-ID rules");
  }
  if (!signsEverythingNeeded(valueOf(*fields, "openid.signed")) ||
      valueOf(*fields, "openid.assoc_handle").empty() || valueOf(*fields, "openid.sig").empty()) {
    return refused(identity::kVerificationFailed, "the assertion does not sign the needed fields");
  }
  const std::string nonce = valueOf(*fields, "openid.response_nonce");
  if (!isFreshNonce(nonce, now_seconds)) {
    return refused(identity::kVerificationFailed, "openid.response_nonce is malformed or stale");
  }

  AssertionCheck check;
  check.assertion = CheckedAssertion{*platformId, nonce, *fields};
  return check;
}

}  // namespace skinpulse::plugins::openid2
