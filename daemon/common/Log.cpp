#include "common/Log.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <mutex>
#include <stdexcept>

namespace skinpulse::log {
namespace {

std::mutex mutex;
std::shared_ptr<spdlog::logger> mainLogger;
std::shared_ptr<spdlog::logger> accessLogger;
std::shared_ptr<spdlog::logger> pluginLogger;

// %& and %* escape the message (spdlog's %v is raw text): request paths, headers and
// upstream error texts reach log lines, and a raw CR or LF in them would let a client
// forge whole lines of the journal.
constexpr const char* kTextPattern = "%Y-%m-%dT%H:%M:%S.%eZ %^%-5l%$ [%n] %&";
constexpr const char* kJsonPattern =
    R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","logger":"%n","message":"%*"})";

// The message with every control byte and DEL escaped; every other byte, UTF-8
// included, as it is. Text lines write \n, \r, \t by name and the rest as \xNN; JSON
// lines write \u00NN and also escape '"' and '\\' (the message is a JSON string body).
template <Format kFormat>
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    static constexpr char kHex[] = "0123456789abcdef";
    for (char c : msg.payload) {
      const auto u = static_cast<unsigned char>(c);
      if (kFormat == Format::kJson && (c == '"' || c == '\\')) {
        const char escaped[] = {'\\', c};
        dest.append(escaped, escaped + sizeof escaped);
      } else if (u >= 0x20 && u != 0x7f) {
        dest.push_back(c);
      } else if (kFormat == Format::kJson) {
        const char escaped[] = {'\\', 'u', '0', '0', kHex[u >> 4], kHex[u & 15]};
        dest.append(escaped, escaped + sizeof escaped);
      } else if (c == '\n' || c == '\r' || c == '\t') {
        const char escaped[] = {'\\', c == '\n' ? 'n' : c == '\r' ? 'r' : 't'};
        dest.append(escaped, escaped + sizeof escaped);
      } else {
        const char escaped[] = {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
        dest.append(escaped, escaped + sizeof escaped);
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<EscapedMessage>();
  }
};

std::unique_ptr<spdlog::formatter> makeFormatter(Format format) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  formatter->add_flag<EscapedMessage<Format::kJson>>('*');
  formatter->add_flag<EscapedMessage<Format::kText>>('&');
  formatter->set_pattern(format == Format::kJson ? kJsonPattern : kTextPattern);
  return formatter;
}

std::shared_ptr<spdlog::logger> make(const std::string& name,
                                     const std::shared_ptr<spdlog::sinks::sink>& sink) {
  auto logger = std::make_shared<spdlog::logger>(name, sink);
  logger->flush_on(spdlog::level::warn);
  return logger;
}

void ensureDefaults() {
  if (mainLogger) return;
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  sink->set_formatter(makeFormatter(Format::kText));
  mainLogger = make("skinpulse", sink);
  accessLogger = make("access", sink);
  pluginLogger = make("plugin", sink);
}

}  // namespace

void configure(const std::string& level, Format format, std::shared_ptr<spdlog::sinks::sink> sink) {
  const auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    throw std::invalid_argument("unknown log level '" + level +
                                "' (trace, debug, info, warn, error, off)");
  }
  std::lock_guard lock(mutex);
  if (!sink) sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  sink->set_formatter(makeFormatter(format));
  mainLogger = make("skinpulse", sink);
  accessLogger = make("access", sink);
  pluginLogger = make("plugin", sink);
  for (auto* logger : {mainLogger.get(), accessLogger.get(), pluginLogger.get()}) {
    logger->set_level(parsed);
  }
}

spdlog::logger& main() {
  std::lock_guard lock(mutex);
  ensureDefaults();
  return *mainLogger;
}

spdlog::logger& access() {
  std::lock_guard lock(mutex);
  ensureDefaults();
  return *accessLogger;
}

spdlog::logger& plugin() {
  std::lock_guard lock(mutex);
  ensureDefaults();
  return *pluginLogger;
}

}  // namespace skinpulse::log
