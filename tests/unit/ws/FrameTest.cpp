#include "WsTestSupport.hpp"
#include "ws/Frame.hpp"
#include "ws/Utf8.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::ws;

class FrameTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FrameTest);
  CPPUNIT_TEST(lengthFormsAtTheirBoundaries);
  CPPUNIT_TEST(closeFramesFitAControlFrame);
  CPPUNIT_TEST(validatesUtf8Strictly);
  CPPUNIT_TEST_SUITE_END();

 public:
  void lengthFormsAtTheirBoundaries() {
    for (const std::size_t size : {0u, 125u, 126u, 65535u, 65536u, 100000u}) {
      std::string bytes = encodeFrame(Opcode::kText, std::string(size, 'z'));
      CPPUNIT_ASSERT_EQUAL(frameHeaderSize(size) + size, bytes.size());
      CPPUNIT_ASSERT_EQUAL(0x81, static_cast<int>(static_cast<std::uint8_t>(bytes[0])));
      const auto frames = wstest::parseServerFrames(bytes);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
      CPPUNIT_ASSERT_EQUAL(size, frames[0].payload.size());
      CPPUNIT_ASSERT(bytes.empty());
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), frameHeaderSize(125));
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), frameHeaderSize(126));
    CPPUNIT_ASSERT_EQUAL(std::size_t(10), frameHeaderSize(65536));
  }

  void closeFramesFitAControlFrame() {
    std::string bytes = encodeClose(1013, std::string(300, 'r'));
    const auto frames = wstest::parseServerFrames(bytes);
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x8), frames.at(0).opcode);
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1013), frames[0].closeCode());
    CPPUNIT_ASSERT_EQUAL(std::size_t(125), frames[0].payload.size());
    CPPUNIT_ASSERT(close_code::isValidReceived(1000));
    CPPUNIT_ASSERT(close_code::isValidReceived(4999));
    CPPUNIT_ASSERT(!close_code::isValidReceived(1006));
    CPPUNIT_ASSERT(!close_code::isValidReceived(1015));
    CPPUNIT_ASSERT(!close_code::isValidReceived(5000));
  }

  void validatesUtf8Strictly() {
    CPPUNIT_ASSERT(isValidUtf8("plain ascii"));
    CPPUNIT_ASSERT(isValidUtf8("\xE2\x98\x85 StatTrak\xE2\x84\xA2"));
    CPPUNIT_ASSERT(isValidUtf8("\xF0\x9F\x94\xA5"));
    CPPUNIT_ASSERT(!isValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
    CPPUNIT_ASSERT(!isValidUtf8("\xE0\x80\xAF"));      // overlong
    CPPUNIT_ASSERT(!isValidUtf8("\x80"));
    CPPUNIT_ASSERT(!isValidUtf8("\xC3"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FrameTest);
