#include "ListSource.hpp"

#include "SourceSupport.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace skinpulse::plugins::support {
namespace {

bool isAccept(const std::pair<std::string, std::string>& header) {
  const std::string& name = header.first;
  return name.size() == 6 && std::equal(name.begin(), name.end(), "accept", [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
         });
}

sdk::PollReport pollOnce(sdk::Host& host, const ListRequest& request, const Mapping& mapping) {
  sdk::HttpRequest http;
  http.url = request.url;
  http.headers = request.headers;
  if (std::none_of(http.headers.begin(), http.headers.end(), isAccept)) {
    http.headers.emplace_back("Accept", "application/json");
  }
  http.timeout = request.timeout;
  http.max_body_bytes = request.max_bytes;
  const sdk::HttpResponse response = host.http().send(http);
  if (auto failed = failureOf(response, host.clock().nowUnixSeconds(), request.auth_hint)) {
    host.logger().warn(request.what + ": " + failed->status.message());
    return failedReport(std::move(failed->status), failed->retry_after_seconds);
  }
  // The parse time goes into the poll's log line: the one figure that says whether a feed
  // outgrew the reader (issue 17: 30,000 items in ≤ 20 ms).
  const auto started = std::chrono::steady_clock::now();
  ListFeed feed(request.max_depth);
  if (auto error = feed.parse(response.body, request.max_bytes)) {
    host.logger().warn(request.what + ": " + *error);
    const bool too_large = response.body.size() > request.max_bytes;
    return failedReport(sdk::Status(
        too_large ? sdk::Status::Code::kTooLarge : sdk::Status::Code::kMalformed, *error));
  }
  RowCounts counts;
  sdk::PollReport batch = mapFeed(feed.root(), mapping, counts);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  const std::string line = request.what + ": " + counts.summary(batch.quotes.size()) +
                           "; parsed in " + std::to_string(micros / 1000) + "." +
                           std::to_string(micros % 1000 / 100) + " ms";
  if (!batch.status.isOk()) {
    host.logger().warn(request.what + ": " + batch.status.message() + " (" + line + ")");
  } else if (counts.malformed() > 0) {
    host.logger().warn(line);
  } else {
    host.logger().debug(line);
  }
  return batch;
}

}  // namespace

sdk::PollReport failedReport(sdk::Status status, std::optional<std::int64_t> retry_after) {
  sdk::PollReport report;
  report.status = std::move(status);
  report.retry_after_seconds = retry_after;
  return report;
}

ListRequest readListRequest(const sdk::Config& config, const ListSpec& spec) {
  ListRequest request;
  request.url = baseUrl(config, spec.example_url) + std::string(spec.path);
  request.max_bytes = static_cast<std::size_t>(
      positiveKey(config, "max_bytes", static_cast<std::int64_t>(spec.default_max_bytes),
                  std::int64_t{1} << 34));
  request.timeout = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 30, 600));
  request.max_depth = spec.max_depth;
  const std::string_view path = spec.path.substr(0, spec.path.find('?'));
  request.what = std::string(spec.name) + " " + std::string(path);
  return request;
}

sdk::PollReport pollList(sdk::Host& host, const ListRequest& request, const Mapping& mapping) {
  try {
    return pollOnce(host, request, mapping);
  } catch (const std::exception& e) {  // std::bad_alloc on a huge tape, a logger's throw
    return failedReport(sdk::Status(sdk::Status::Code::kInternal, e.what()));
  }
}

ListSource::ListSource(sdk::Host& host, const ListSpec& spec, Mapping mapping)
    : host_(host), request_(readListRequest(host.config(), spec)), mapping_(std::move(mapping)) {}

}  // namespace skinpulse::plugins::support
