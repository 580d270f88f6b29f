#pragma once

// Ed25519Signer: DMarket's request signature (README.md, "Signed last-sales"). OpenSSL's
// EVP_PKEY_ED25519 signs the message itself (PureEdDSA, RFC 8032 §5.1): EVP_DigestSign with
// a NULL digest. The secret is accepted as DMarket hands it out, hex of 64 bytes (the
// 32-byte seed followed by the 32-byte public key), or as hex of the 32-byte seed; it
// lives only inside the OpenSSL key object and is never returned or logged.

#include <memory>
#include <string>
#include <string_view>

namespace skinpulse::plugins::dmarket {

class Ed25519Signer {
 public:
  /// Throws std::invalid_argument (never quoting the secret) when `secret_hex` is not
  /// 64 or 128 hex digits, or when its second half is not the seed's public key.
  explicit Ed25519Signer(std::string_view secret_hex);
  ~Ed25519Signer();
  Ed25519Signer(const Ed25519Signer&) = delete;
  Ed25519Signer& operator=(const Ed25519Signer&) = delete;

  /// The 64-byte signature of `message`, as 128 lower-case hex digits.
  std::string signHex(std::string_view message) const;
  /// The public key, 64 lower-case hex digits (what DMarket calls the public API key).
  const std::string& publicKeyHex() const { return public_hex_; }

 private:
  struct Key;
  std::unique_ptr<Key> key_;
  std::string public_hex_;
};

/// Bytes as lower-case hex.
std::string toHex(std::string_view bytes);
/// Hex (either case) as bytes; false when `hex` has odd length or a non-hex digit.
bool fromHex(std::string_view hex, std::string& out);

/// True when `signature_hex` is a valid Ed25519 signature of `message` under the public
/// key `public_hex` (OpenSSL EVP_DigestVerify): the tests' check of signHex().
bool verifyEd25519(std::string_view public_hex, std::string_view message,
                   std::string_view signature_hex);

}  // namespace skinpulse::plugins::dmarket
