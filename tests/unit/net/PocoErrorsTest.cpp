#include "net/PocoErrors.hpp"

#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLException.h>
#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::errorKindOf;
using Error = skinpulse::sdk::HttpResponse::Error;

class PocoErrorsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoErrorsTest);
  CPPUNIT_TEST(testTimeout);
  CPPUNIT_TEST(testConnect);
  CPPUNIT_TEST(testProtocol);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testTimeout() { CPPUNIT_ASSERT(errorKindOf(Poco::TimeoutException()) == Error::kTimeout); }

  void testConnect() {
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::HostNotFoundException("x")) == Error::kConnect);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::NoAddressFoundException("x")) == Error::kConnect);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::ConnectionRefusedException("x")) == Error::kConnect);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::ConnectionResetException("x")) == Error::kConnect);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::CertificateValidationException("x")) == Error::kConnect);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::SSLException("x")) == Error::kConnect);
  }

  void testProtocol() {
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::MessageException("x")) == Error::kProtocol);
    CPPUNIT_ASSERT(errorKindOf(Poco::Net::NoMessageException("x")) == Error::kProtocol);
    CPPUNIT_ASSERT(errorKindOf(Poco::SyntaxException("x")) == Error::kProtocol);
    CPPUNIT_ASSERT(errorKindOf(Poco::IllegalStateException("x")) == Error::kProtocol);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoErrorsTest);
