#include "devmode/DevOpenIdProvider.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "http/HttpError.hpp"

#include <ctime>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace skinpulse::devmode {
namespace {

constexpr const char* kSignedList =
    "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle";
constexpr const char* kAssocHandle = "skinpulse-dev-stateless";
constexpr std::size_t kRememberedNonces = 4096;  // far more than a developer signs in

const std::string* field(const sdk::Fields& fields, const std::string& name) {
  const std::string* found = nullptr;
  for (const auto& [key, value] : fields) {
    if (key != name) continue;
    if (found != nullptr) return nullptr;  // repeated: ambiguous, refused
    found = &value;
  }
  return found;
}

std::string base64(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::string utcStamp(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

[[noreturn]] void badRequest(const std::string& detail) {
  throw http::HttpError(400, "invalid_parameter", detail);
}

}  // namespace

DevOpenIdProvider::DevOpenIdProvider(std::string endpoint, std::string realm_base,
                                     std::string claimed_host, std::string player_id,
                                     std::string key)
    : endpoint_(std::move(endpoint)),
      realm_base_(std::move(realm_base)),
      claimed_host_(std::move(claimed_host)),
      player_id_(std::move(player_id)),
      key_(std::move(key)) {}

std::string DevOpenIdProvider::signature(const sdk::Fields& fields,
                                         const std::string& signed_list) const {
  // OpenID 2.0 §10.1: the Key-Value Form of the signed fields, in the order listed.
  std::string message;
  std::size_t start = 0;
  while (start <= signed_list.size()) {
    auto end = signed_list.find(',', start);
    if (end == std::string::npos) end = signed_list.size();
    const std::string name = signed_list.substr(start, end - start);
    const std::string* value = field(fields, "openid." + name);
    if (name.empty() || value == nullptr) return {};
    message += name + ":" + *value + "\n";
    start = end + 1;
  }
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &size);
  return base64(mac, size);
}

std::string DevOpenIdProvider::positiveAssertion(const sdk::Fields& query, std::int64_t now_seconds,
                                                 const std::string& nonce) const {
  return positiveAssertion(query, now_seconds, nonce, player_id_);
}

std::string DevOpenIdProvider::positiveAssertion(const sdk::Fields& query, std::int64_t now_seconds,
                                                 const std::string& nonce,
                                                 const std::string& player_id) const {
  const std::string* ns = field(query, "openid.ns");
  const std::string* mode = field(query, "openid.mode");
  const std::string* return_to = field(query, "openid.return_to");
  if (ns == nullptr || *ns != kOpenIdNamespace) badRequest("openid.ns must be OpenID 2.0");
  if (mode == nullptr || *mode != "checkid_setup") badRequest("openid.mode must be checkid_setup");
  // Only back to this daemon: the realm is BASE_URL, and return_to must lie under it.
  const std::string realm = realm_base_ + "/";
  if (return_to == nullptr || return_to->rfind(realm, 0) != 0) {
    badRequest("openid.return_to must lie under " + realm);
  }
  const std::string claimed = "https://" + claimed_host_ + "/openid/id/" + player_id;
  sdk::Fields answer = {{"openid.ns", kOpenIdNamespace},
                        {"openid.mode", "id_res"},
                        {"openid.op_endpoint", endpoint_},
                        {"openid.claimed_id", claimed},
                        {"openid.identity", claimed},
                        {"openid.return_to", *return_to},
                        {"openid.response_nonce", utcStamp(now_seconds) + nonce},
                        {"openid.assoc_handle", kAssocHandle},
                        {"openid.signed", kSignedList}};
  answer.emplace_back("openid.sig", signature(answer, kSignedList));
  return sdk::appendQuery(*return_to, sdk::encodeQuery(answer));
}

bool DevOpenIdProvider::verify(const sdk::Fields& form) {
  const std::string* mode = field(form, "openid.mode");
  const std::string* signed_list = field(form, "openid.signed");
  const std::string* sig = field(form, "openid.sig");
  const std::string* nonce = field(form, "openid.response_nonce");
  const std::string* handle = field(form, "openid.assoc_handle");
  if (mode == nullptr || *mode != "check_authentication" || signed_list == nullptr ||
      sig == nullptr || nonce == nullptr || handle == nullptr || *handle != kAssocHandle) {
    return false;
  }
  // What a positive assertion of this provider signs, and nothing less.
  if (*signed_list != kSignedList) return false;
  const std::string expected = signature(form, *signed_list);
  if (expected.empty() || expected.size() != sig->size() ||
      CRYPTO_memcmp(expected.data(), sig->data(), expected.size()) != 0) {
    return false;
  }
  const std::lock_guard lock(mutex_);
  if (!verified_nonces_.insert(*nonce).second) return false;  // verified once only
  nonce_order_.push_back(*nonce);
  if (nonce_order_.size() > kRememberedNonces) {
    verified_nonces_.erase(nonce_order_.front());
    nonce_order_.pop_front();
  }
  return true;
}

std::string DevOpenIdProvider::verificationAnswer(bool valid) {
  return std::string("ns:") + kOpenIdNamespace + "\nis_valid:" + (valid ? "true" : "false") + "\n";
}

}  // namespace skinpulse::devmode
