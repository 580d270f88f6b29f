#include "net/TlsContext.hpp"

namespace skinpulse::net {

Poco::Net::Context::Ptr makeClientTlsContext(const std::string& ca_location) {
  Poco::Net::Context::Params params;
  params.caLocation = ca_location;
  // VERIFY_RELAXED is, for a client, OpenSSL's SSL_VERIFY_PEER: the handshake fails on an
  // untrusted chain. Poco then checks the host name (extended verification, on by default).
  params.verificationMode = Poco::Net::Context::VERIFY_RELAXED;
  params.loadDefaultCAs = false;  // only what ca_location names, so tests can pin a CA
  params.cipherList = "DEFAULT";  // OpenSSL's own vetted defaults
  Poco::Net::Context::Ptr context =
      new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
  context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
  context->enableExtendedCertificateVerification(true);
  return context;
}

}  // namespace skinpulse::net
