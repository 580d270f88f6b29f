#include "telemetry/TextFormat.hpp"

#include <charconv>
#include <cmath>

namespace skinpulse::telemetry {
namespace {

bool nameChar(char c, bool first, bool colon) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  if (letter || (colon && c == ':')) return true;
  return !first && c >= '0' && c <= '9';
}

bool validName(std::string_view name, bool colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!nameChar(name[i], i == 0, colon)) return false;
  }
  return true;
}

void appendLabels(std::string& out, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, std::string_view le) {
  if (names.empty() && le.empty()) return;
  out += '{';
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    out += names[i];
    out += "=\"";
    appendLabelValue(out, values[i]);
    out += '"';
  }
  if (!le.empty()) {
    if (!names.empty()) out += ',';
    out += "le=\"";
    out += le;
    out += '"';
  }
  out += '}';
}

}  // namespace

std::string_view typeName(Type type) {
  switch (type) {
    case Type::kCounter:
      return "counter";
    case Type::kGauge:
      return "gauge";
    case Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

void appendHeader(std::string& out, std::string_view name, std::string_view help, Type type) {
  out += "# HELP ";
  out += name;
  out += ' ';
  for (const char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += typeName(type);
  out += '\n';
}

void appendLabelValue(std::string& out, std::string_view value) {
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

void appendSample(std::string& out, std::string_view name, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, std::string_view le, double value) {
  out += name;
  appendLabels(out, names, values, le);
  out += ' ';
  appendNumber(out, value);
  out += '\n';
}

void appendSample(std::string& out, std::string_view name, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, std::string_view le,
                  std::uint64_t value) {
  out += name;
  appendLabels(out, names, values, le);
  out += ' ';
  appendNumber(out, value);
  out += '\n';
}

void appendNumber(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0) {
    // Whole numbers (counts, Unix times) in plain digits: "1764000000", not "1.764e+09".
    char buffer[24];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::int64_t>(value));
    out.append(buffer, result.ptr);
  } else {
    // Shortest round trip; plain decimals ("0.0005", not "5e-04") where they stay short.
    char buffer[64];
    const double magnitude = std::fabs(value);
    const auto format = magnitude >= 1e-9 && magnitude < 1e15 ? std::chars_format::fixed
                                                              : std::chars_format::general;
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, format);
    out.append(buffer, result.ptr);
  }
}

void appendNumber(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

bool validMetricName(std::string_view name) { return validName(name, true); }
bool validLabelName(std::string_view name) { return validName(name, false) && name != "le"; }

}  // namespace skinpulse::telemetry
