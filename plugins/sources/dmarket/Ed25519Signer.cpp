#include "Ed25519Signer.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdexcept>

namespace skinpulse::plugins::dmarket {
namespace {

constexpr std::size_t kSeedBytes = 32;
constexpr std::size_t kPublicBytes = 32;
constexpr std::size_t kSignatureBytes = 64;

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Wipes a buffer that held secret bytes (OPENSSL_cleanse is not optimised away).
void wipe(std::string& bytes) {
  if (!bytes.empty()) OPENSSL_cleanse(bytes.data(), bytes.size());
  bytes.clear();
}

}  // namespace

struct Ed25519Signer::Key {
  PkeyPtr pkey;
};

std::string toHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
  return out;
}

bool fromHex(std::string_view hex, std::string& out) {
  out.clear();
  if (hex.size() % 2 != 0) return false;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = hexValue(hex[i]);
    const int low = hexValue(hex[i + 1]);
    if (high < 0 || low < 0) {
      wipe(out);
      return false;
    }
    out.push_back(static_cast<char>((high << 4) | low));
  }
  return true;
}

Ed25519Signer::Ed25519Signer(std::string_view secret_hex) : key_(std::make_unique<Key>()) {
  std::string secret;
  if (!fromHex(secret_hex, secret) ||
      (secret.size() != kSeedBytes && secret.size() != kSeedBytes + kPublicBytes)) {
    wipe(secret);
    throw std::invalid_argument(
        "secret_key: expected the hex of a 64-byte DMarket secret key (seed + public key) or "
        "of a 32-byte Ed25519 seed (value not shown)");
  }
  key_->pkey.reset(EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(secret.data()),
      kSeedBytes));
  if (!key_->pkey) {
    wipe(secret);
    throw std::invalid_argument("secret_key: OpenSSL refused the Ed25519 seed");
  }
  std::string public_key(kPublicBytes, '\0');
  std::size_t length = public_key.size();
  if (EVP_PKEY_get_raw_public_key(
          key_->pkey.get(), reinterpret_cast<unsigned char*>(public_key.data()), &length) != 1 ||
      length != kPublicBytes) {
    wipe(secret);
    throw std::invalid_argument("secret_key: OpenSSL could not derive the public key");
  }
  // DMarket's 64-byte form repeats the public key: a mismatch means a damaged secret.
  const bool consistent =
      secret.size() == kSeedBytes || secret.compare(kSeedBytes, kPublicBytes, public_key) == 0;
  wipe(secret);
  if (!consistent) {
    throw std::invalid_argument(
        "secret_key: its last 32 bytes are not the public key of its first 32 (a damaged or "
        "mixed-up key; value not shown)");
  }
  public_hex_ = toHex(public_key);
}

Ed25519Signer::~Ed25519Signer() = default;

std::string Ed25519Signer::signHex(std::string_view message) const {
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key_->pkey.get()) != 1) {
    throw std::runtime_error("Ed25519: EVP_DigestSignInit failed");
  }
  std::string signature(kSignatureBytes, '\0');
  std::size_t length = signature.size();
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      length != kSignatureBytes) {
    throw std::runtime_error("Ed25519: EVP_DigestSign failed");
  }
  return toHex(signature);
}

bool verifyEd25519(std::string_view public_hex, std::string_view message,
                   std::string_view signature_hex) {
  std::string public_key;
  std::string signature;
  if (!fromHex(public_hex, public_key) || public_key.size() != kPublicBytes ||
      !fromHex(signature_hex, signature) || signature.size() != kSignatureBytes) {
    return false;
  }
  PkeyPtr pkey(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(public_key.data()),
      public_key.size()));
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!pkey || !ctx ||
      EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1) {
    return false;
  }
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

}  // namespace skinpulse::plugins::dmarket
