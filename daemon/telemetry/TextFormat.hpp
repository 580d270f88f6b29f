#pragma once

// The pieces of the Prometheus text exposition format 0.0.4: HELP and TYPE lines, sample
// lines with their label sets, and the escaping and number spelling the format asks for
// (https://prometheus.io/docs/instrumenting/exposition_formats/). Appends to a string the
// caller reuses, so a scrape allocates little.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::telemetry {

enum class Type { kCounter, kGauge, kHistogram };

std::string_view typeName(Type type);

/// "# HELP name help\n# TYPE name type\n"; the help text escapes \ and newline.
void appendHeader(std::string& out, std::string_view name, std::string_view help, Type type);

/// A label value with \, " and newline escaped.
void appendLabelValue(std::string& out, std::string_view value);

/// `name{a="x",b="y"[,le="bound"]} value\n`; no braces when there is no label at all.
/// `names` and `values` have the same length.
void appendSample(std::string& out, std::string_view name, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, std::string_view le, double value);
void appendSample(std::string& out, std::string_view name, const std::vector<std::string>& names,
                  const std::vector<std::string>& values, std::string_view le, std::uint64_t value);

/// A number as the format spells it: shortest round-trip decimal, "+Inf", "-Inf", "NaN".
void appendNumber(std::string& out, double value);
void appendNumber(std::string& out, std::uint64_t value);

/// Whether `name` is a valid metric or label name ([a-zA-Z_:][a-zA-Z0-9_:]*; no colon for
/// labels).
bool validMetricName(std::string_view name);
bool validLabelName(std::string_view name);

}  // namespace skinpulse::telemetry
