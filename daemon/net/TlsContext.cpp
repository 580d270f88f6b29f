#include "net/TlsContext.hpp"

namespace skinpulse::net {

Poco::Net::Context::Ptr makeClientTlsContext(const std::string& ca_location) {
  Poco::Net::Context::Params params;
  params.caLocation = ca_location;
  // For a client STRICT and RELAXED both mean OpenSSL's SSL_VERIFY_PEER: the handshake fails
  // on an untrusted chain. STRICT matters to Poco's own host-name check, which RELAXED skips
  // for "localhost" and loopback names; STRICT checks every name alike (and is testable).
  params.verificationMode = Poco::Net::Context::VERIFY_STRICT;
  params.loadDefaultCAs = false;  // only what ca_location names, so tests can pin a CA
  params.cipherList = "DEFAULT";  // OpenSSL's own vetted defaults
  Poco::Net::Context::Ptr context =
      new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
  context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
  context->enableExtendedCertificateVerification(true);
  return context;
}

}  // namespace skinpulse::net
