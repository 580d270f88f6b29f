#include "EcbParser.hpp"

#include <Poco/SAX/Attributes.h>
#include <Poco/SAX/DefaultHandler.h>
#include <Poco/SAX/InputSource.h>
#include <Poco/SAX/SAXException.h>
#include <Poco/SAX/SAXParser.h>
#include <Poco/SAX/XMLReader.h>

#include <map>
#include <numeric>
#include <optional>
#include <sstream>

namespace skinpulse::plugins::ecb {
namespace {

__extension__ typedef __int128 Wide;  // __extension__: GCC and Clang have it, ISO C++ does not

struct Row {
  std::string currency;
  std::string rate;
};

// Collects the Cube rows; refuses depth beyond kMaxDepth.
class Handler final : public Poco::XML::DefaultHandler {
 public:
  void startElement(const Poco::XML::XMLString&, const Poco::XML::XMLString& local,
                    const Poco::XML::XMLString&, const Poco::XML::Attributes& attributes) override {
    if (++depth_ > kMaxDepth) throw Poco::XML::SAXException("elements nested too deeply");
    if (local != "Cube") return;
    const std::string time = attributes.getValue("", "time");
    if (!time.empty() && date.empty()) date = time;
    const std::string currency = attributes.getValue("", "currency");
    if (!currency.empty()) rows.push_back({currency, attributes.getValue("", "rate")});
    if (rows.size() > 1000) throw Poco::XML::SAXException("too many rates");
  }
  void endElement(const Poco::XML::XMLString&, const Poco::XML::XMLString&,
                  const Poco::XML::XMLString&) override {
    --depth_;
  }

  std::string date;
  std::vector<Row> rows;

 private:
  int depth_ = 0;
};

bool isCode(std::string_view code) {
  if (code.size() != 3) return false;
  for (char c : code) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

// (a / b) / (c / d) = a·d / (b·c), reduced; nullopt when it does not fit in int64.
std::optional<sdk::CurrencyRate> divide(const sdk::DecimalFraction& x,
                                        const sdk::DecimalFraction& usd) {
  Wide n = static_cast<Wide>(x.numerator) * usd.denominator;
  Wide d = static_cast<Wide>(x.denominator) * usd.numerator;
  Wide a = n, b = d;
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  n /= a;
  d /= a;
  constexpr Wide kMax = INT64_MAX;
  if (n > kMax || d > kMax || n <= 0 || d <= 0) return std::nullopt;
  sdk::CurrencyRate rate;
  rate.numerator = static_cast<std::int64_t>(n);
  rate.denominator = static_cast<std::int64_t>(d);
  return rate;
}

// Any `<!` except a comment or CDATA: a DOCTYPE or another markup declaration.
bool hasMarkupDeclaration(std::string_view xml) {
  for (std::size_t at = xml.find("<!"); at != std::string_view::npos; at = xml.find("<!", at + 2)) {
    const std::string_view rest = xml.substr(at);
    if (rest.rfind("<!--", 0) != 0 && rest.rfind("<![CDATA[", 0) != 0) return true;
  }
  return false;
}

}  // namespace

std::int64_t ecbDateTime(std::string_view date) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return -1;
  int parts[3] = {0, 0, 0};
  const std::size_t starts[3] = {0, 5, 8};
  const std::size_t lengths[3] = {4, 2, 2};
  for (int p = 0; p < 3; ++p) {
    for (std::size_t i = 0; i < lengths[p]; ++i) {
      const char c = date[starts[p] + i];
      if (c < '0' || c > '9') return -1;
      parts[p] = parts[p] * 10 + (c - '0');
    }
  }
  const int y0 = parts[0], m = parts[1], d = parts[2];
  if (y0 < 1999 || m < 1 || m > 12 || d < 1 || d > 31) return -1;
  // Days from civil (H. Hinnant), proleptic Gregorian.
  const int y = m <= 2 ? y0 - 1 : y0;
  const int era = y / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
  return days * 86400 + 15 * 3600;
}

EcbDocument parseEcbDaily(std::string_view xml, std::size_t max_bytes) {
  EcbDocument out;
  if (xml.size() > max_bytes) {
    out.error = "document over " + std::to_string(max_bytes) + " bytes";
    return out;
  }
  if (hasMarkupDeclaration(xml)) {
    out.error = "document carries a DOCTYPE or entity declaration (refused)";
    return out;
  }
  Handler handler;
  try {
    Poco::XML::SAXParser parser;
    parser.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACES, true);
    parser.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_GENERAL_ENTITIES, false);
    parser.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_PARAMETER_ENTITIES, false);
    parser.setContentHandler(&handler);
    std::istringstream stream{std::string(xml)};
    Poco::XML::InputSource source(stream);
    parser.parse(&source);
  } catch (const Poco::Exception& e) {
    out.error = "not the ECB document: " + e.displayText().substr(0, 200);
    return out;
  } catch (const std::exception& e) {
    out.error = std::string("not the ECB document: ") + e.what();
    return out;
  }
  const std::int64_t time = ecbDateTime(handler.date);
  if (time < 0) {
    out.error = "no valid Cube time (expected YYYY-MM-DD)";
    return out;
  }
  std::map<std::string, sdk::DecimalFraction> per_eur;
  for (const auto& row : handler.rows) {
    const auto rate = sdk::parseDecimalFraction(row.rate);
    if (!isCode(row.currency) || !rate || row.currency == "EUR" ||
        per_eur.count(row.currency) != 0) {
      ++out.skipped;
      continue;
    }
    per_eur.emplace(row.currency, *rate);
  }
  const auto usd = per_eur.find("USD");
  if (usd == per_eur.end()) {
    out.error = "no USD rate in the document (needed to base the rates on USD)";
    return out;
  }
  // EUR per USD = 1 / rate(USD).
  if (auto eur = divide({1, 1}, usd->second)) {
    eur->currency = "EUR";
    eur->time = time;
    out.rates.push_back(*eur);
  }
  for (const auto& [code, rate] : per_eur) {
    if (code == "USD") continue;
    auto converted = divide(rate, usd->second);
    if (!converted) {
      ++out.skipped;
      continue;
    }
    converted->currency = code;
    converted->time = time;
    out.rates.push_back(*converted);
  }
  return out;
}

}  // namespace skinpulse::plugins::ecb
