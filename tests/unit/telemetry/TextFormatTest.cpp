#include "telemetry/TextFormat.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <limits>
#include <string>

using namespace skinpulse::telemetry;

class TextFormatTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TextFormatTest);
  CPPUNIT_TEST(helpAndTypeLines);
  CPPUNIT_TEST(labelValuesAreEscaped);
  CPPUNIT_TEST(sampleWithoutLabelsHasNoBraces);
  CPPUNIT_TEST(leComesLast);
  CPPUNIT_TEST(numbers);
  CPPUNIT_TEST(names);
  CPPUNIT_TEST_SUITE_END();

 public:
  void helpAndTypeLines() {
    std::string out;
    appendHeader(out, "skinpulse_x_total", "a \\ b\nc \"quoted\"", Type::kCounter);
    // HELP escapes backslash and newline only; quotes stay as they are.
    CPPUNIT_ASSERT_EQUAL(std::string("# HELP skinpulse_x_total a \\\\ b\\nc \"quoted\"\n"
                                     "# TYPE skinpulse_x_total counter\n"),
                         out);
    out.clear();
    appendHeader(out, "g", "h", Type::kGauge);
    appendHeader(out, "h", "h", Type::kHistogram);
    CPPUNIT_ASSERT(out.find("# TYPE g gauge\n") != std::string::npos);
    CPPUNIT_ASSERT(out.find("# TYPE h histogram\n") != std::string::npos);
  }

  void labelValuesAreEscaped() {
    std::string out;
    appendSample(out, "m", {"a", "b"}, {"x\"y", "back\\slash\nnext"}, {}, std::uint64_t{3});
    CPPUNIT_ASSERT_EQUAL(std::string("m{a=\"x\\\"y\",b=\"back\\\\slash\\nnext\"} 3\n"), out);
  }

  void sampleWithoutLabelsHasNoBraces() {
    std::string out;
    appendSample(out, "m", {}, {}, {}, 1.5);
    CPPUNIT_ASSERT_EQUAL(std::string("m 1.5\n"), out);
  }

  void leComesLast() {
    std::string out;
    appendSample(out, "m_bucket", {"route"}, {"/api/v1/items/:id"}, "0.25", std::uint64_t{7});
    appendSample(out, "m_bucket", {}, {}, "+Inf", std::uint64_t{9});
    CPPUNIT_ASSERT_EQUAL(std::string("m_bucket{route=\"/api/v1/items/:id\",le=\"0.25\"} 7\n"
                                     "m_bucket{le=\"+Inf\"} 9\n"),
                         out);
  }

  void numbers() {
    const auto spell = [](double value) {
      std::string out;
      appendNumber(out, value);
      return out;
    };
    CPPUNIT_ASSERT_EQUAL(std::string("0"), spell(0.0));
    CPPUNIT_ASSERT_EQUAL(std::string("1"), spell(1.0));
    CPPUNIT_ASSERT_EQUAL(std::string("0.005"), spell(0.005));
    CPPUNIT_ASSERT_EQUAL(std::string("0.0005"), spell(0.0005));
    CPPUNIT_ASSERT_EQUAL(std::string("0.1"), spell(0.1));
    CPPUNIT_ASSERT_EQUAL(std::string("1e-12"), spell(1e-12));
    CPPUNIT_ASSERT_EQUAL(std::string("1.5e+20"), spell(1.5e20));
    CPPUNIT_ASSERT_EQUAL(std::string("-2.5"), spell(-2.5));
    CPPUNIT_ASSERT_EQUAL(std::string("1764000000"), spell(1764000000.0));
    CPPUNIT_ASSERT_EQUAL(std::string("+Inf"), spell(std::numeric_limits<double>::infinity()));
    CPPUNIT_ASSERT_EQUAL(std::string("-Inf"), spell(-std::numeric_limits<double>::infinity()));
    CPPUNIT_ASSERT_EQUAL(std::string("NaN"), spell(std::nan("")));
    std::string out;
    appendNumber(out, std::uint64_t{18446744073709551615ull});
    CPPUNIT_ASSERT_EQUAL(std::string("18446744073709551615"), out);
  }

  void names() {
    CPPUNIT_ASSERT(validMetricName("skinpulse_http_requests_total"));
    CPPUNIT_ASSERT(validMetricName("a:b"));
    CPPUNIT_ASSERT(!validMetricName("1abc"));
    CPPUNIT_ASSERT(!validMetricName("a-b"));
    CPPUNIT_ASSERT(!validMetricName(""));
    CPPUNIT_ASSERT(validLabelName("route"));
    CPPUNIT_ASSERT(!validLabelName("a:b"));
    CPPUNIT_ASSERT(!validLabelName("le"));  // reserved for histogram buckets
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TextFormatTest);
