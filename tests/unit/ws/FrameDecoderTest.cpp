#include "WsTestSupport.hpp"
#include "ws/FrameDecoder.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::ws;
using wstest::clientFrame;

class FrameDecoderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FrameDecoderTest);
  CPPUNIT_TEST(decodesMaskedTextSplitAnywhere);
  CPPUNIT_TEST(refusesUnmaskedFrames);
  CPPUNIT_TEST(refusesReservedBitsAndUnknownOpcodes);
  CPPUNIT_TEST(controlFramesAreShortAndFinal);
  CPPUNIT_TEST(assemblesFragmentsAroundControlFrames);
  CPPUNIT_TEST(enforcesFragmentSequencing);
  CPPUNIT_TEST(messageSizeLimitIsFourKiB);
  CPPUNIT_TEST(fragmentedMessagesCountAsAWhole);
  CPPUNIT_TEST(refusesHugeLengthsBeforeBuffering);
  CPPUNIT_TEST(textMustBeUtf8);
  CPPUNIT_TEST(closeFramesAreChecked);
  CPPUNIT_TEST_SUITE_END();

  std::vector<DecodedMessage> messages_;

  bool feed(FrameDecoder& decoder, const std::string& bytes) {
    return decoder.feed(bytes, [this](DecodedMessage&& m) { messages_.push_back(std::move(m)); });
  }

  void assertFails(const std::string& bytes, std::uint16_t code) {
    FrameDecoder decoder(4096);
    CPPUNIT_ASSERT(!feed(decoder, bytes));
    CPPUNIT_ASSERT_EQUAL(code, decoder.error().code);
    CPPUNIT_ASSERT(!feed(decoder, wstest::textFrame("x")));  // dead afterwards
  }

 public:
  void setUp() override { messages_.clear(); }

  void decodesMaskedTextSplitAnywhere() {
    const std::string text(300, 'a');  // 16-bit length form
    const std::string bytes = wstest::textFrame("{\"type\":\"ping\"}") + wstest::textFrame(text);
    for (std::size_t step = 1; step <= bytes.size(); step += 7) {
      messages_.clear();
      FrameDecoder decoder(4096);
      for (std::size_t i = 0; i < bytes.size(); i += step) {
        CPPUNIT_ASSERT(feed(decoder, bytes.substr(i, step)));
      }
      CPPUNIT_ASSERT_EQUAL(std::size_t(2), messages_.size());
      CPPUNIT_ASSERT(messages_[0].opcode == Opcode::kText);
      CPPUNIT_ASSERT_EQUAL(std::string("{\"type\":\"ping\"}"), messages_[0].payload);
      CPPUNIT_ASSERT_EQUAL(text, messages_[1].payload);
    }
  }

  void refusesUnmaskedFrames() {
    assertFails(clientFrame(0x81, "hello", false), close_code::kProtocolError);
  }

  void refusesReservedBitsAndUnknownOpcodes() {
    assertFails(clientFrame(0xC1, "x"), close_code::kProtocolError);  // RSV1
    assertFails(clientFrame(0x83, "x"), close_code::kProtocolError);  // opcode 3
    assertFails(clientFrame(0x8B, ""), close_code::kProtocolError);   // opcode 0xB
  }

  void controlFramesAreShortAndFinal() {
    assertFails(clientFrame(0x89, std::string(126, 'p')), close_code::kProtocolError);
    assertFails(clientFrame(0x09, "p"), close_code::kProtocolError);  // fragmented ping
    FrameDecoder decoder(4096);
    CPPUNIT_ASSERT(feed(decoder, clientFrame(0x89, std::string(125, 'p'))));
    CPPUNIT_ASSERT(messages_.at(0).opcode == Opcode::kPing);
    CPPUNIT_ASSERT_EQUAL(std::size_t(125), messages_[0].payload.size());
  }

  void assemblesFragmentsAroundControlFrames() {
    FrameDecoder decoder(4096);
    CPPUNIT_ASSERT(feed(decoder, clientFrame(0x01, "{\"type\":") + clientFrame(0x89, "hi") +
                                     clientFrame(0x00, "\"ping\"") + clientFrame(0x80, "}")));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), messages_.size());
    CPPUNIT_ASSERT(messages_[0].opcode == Opcode::kPing);
    CPPUNIT_ASSERT(messages_[1].opcode == Opcode::kText);
    CPPUNIT_ASSERT_EQUAL(std::string("{\"type\":\"ping\"}"), messages_[1].payload);
  }

  void enforcesFragmentSequencing() {
    assertFails(clientFrame(0x80, "orphan"), close_code::kProtocolError);
    assertFails(clientFrame(0x01, "a") + clientFrame(0x81, "b"), close_code::kProtocolError);
  }

  void messageSizeLimitIsFourKiB() {
    FrameDecoder decoder(4096);
    CPPUNIT_ASSERT(feed(decoder, wstest::textFrame(std::string(4096, 'a'))));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), messages_.size());
    assertFails(wstest::textFrame(std::string(4097, 'a')), close_code::kMessageTooBig);
  }

  void fragmentedMessagesCountAsAWhole() {
    const std::string half(2049, 'a');
    assertFails(clientFrame(0x01, half) + clientFrame(0x80, half), close_code::kMessageTooBig);
  }

  void refusesHugeLengthsBeforeBuffering() {
    // Only the header of a 1 GiB frame arrives: refused at once.
    std::string header = clientFrame(0x82, std::string(70000, 'x')).substr(0, 14);
    header[2] = 0;
    header[3] = 0;
    header[4] = 0;
    header[5] = 0;
    header[6] = 0x40;
    assertFails(header, close_code::kMessageTooBig);
    std::string negative = header;
    negative[2] = static_cast<char>(0x80);  // 64-bit length with the top bit set
    assertFails(negative, close_code::kProtocolError);
  }

  void textMustBeUtf8() {
    assertFails(wstest::textFrame("\xC0\xAF"), close_code::kInvalidPayload);      // overlong '/'
    assertFails(wstest::textFrame("\xED\xA0\x80"), close_code::kInvalidPayload);  // surrogate
    assertFails(clientFrame(0x01, "\xE2\x82") + clientFrame(0x80, "x"),
                close_code::kInvalidPayload);
    FrameDecoder decoder(4096);
    // A sequence split across fragments is fine once whole.
    CPPUNIT_ASSERT(feed(decoder, clientFrame(0x01, "\xE2\x82") + clientFrame(0x80, "\xAC")));
    CPPUNIT_ASSERT_EQUAL(std::string("\xE2\x82\xAC"), messages_.at(0).payload);
  }

  void closeFramesAreChecked() {
    assertFails(clientFrame(0x88, "x"), close_code::kProtocolError);    // one byte
    assertFails(wstest::closeFrame(1005), close_code::kProtocolError);  // reserved
    assertFails(wstest::closeFrame(999), close_code::kProtocolError);
    assertFails(clientFrame(0x88, std::string("\x03\xE8\xFF", 3)), close_code::kInvalidPayload);
    FrameDecoder decoder(4096);
    CPPUNIT_ASSERT(feed(decoder, wstest::closeFrame(1000) + clientFrame(0x88, "")));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), messages_.size());
    CPPUNIT_ASSERT(messages_[0].opcode == Opcode::kClose);
    CPPUNIT_ASSERT(messages_[1].payload.empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FrameDecoderTest);
