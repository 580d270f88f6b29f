#include "net/BudgetedHttpClient.hpp"

#include "net/HttpUrl.hpp"

#include <algorithm>
#include <cctype>

namespace skinpulse::net {

BudgetedHttpClient::BudgetedHttpClient(sdk::HttpClient& inner, RequestBudget& budget,
                                       const std::string& upstream_url)
    : inner_(inner), budget_(budget), origin_(originOf(upstream_url)) {}

std::string BudgetedHttpClient::originOf(const std::string& url) {
  const auto parsed = parseHttpUrl(url);
  if (!parsed) return {};
  std::string host = parsed->host;
  std::transform(host.begin(), host.end(), host.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::string(parsed->secure ? "https://" : "http://") + host + ":" +
         std::to_string(parsed->port);
}

sdk::HttpResponse BudgetedHttpClient::send(const sdk::HttpRequest& request) {
  if (origin_.empty() || originOf(request.url) != origin_) return inner_.send(request);
  sdk::HttpRequest sent;
  if (auto refused = admit(request, sent)) return std::move(*refused);
  return inner_.send(sent);
}

sdk::HttpResponse BudgetedHttpClient::stream(const sdk::HttpRequest& request, sdk::BodySink& sink) {
  if (origin_.empty() || originOf(request.url) != origin_) return inner_.stream(request, sink);
  sdk::HttpRequest sent;
  if (auto refused = admit(request, sent)) return std::move(*refused);
  return inner_.stream(sent, sink);
}

std::optional<sdk::HttpResponse> BudgetedHttpClient::admit(const sdk::HttpRequest& request,
                                                           sdk::HttpRequest& sent) {
  // The timeout bounds the whole exchange, waiting for a token included: wait at most
  // half of it, and give the request what is left.
  const auto started = std::chrono::steady_clock::now();
  if (!budget_.acquire(RequestBudget::Priority::kBackground, started + request.timeout / 2)) {
    sdk::HttpResponse refused;
    refused.error = sdk::HttpResponse::Error::kTimeout;
    refused.error_message = "not sent: this server's budget of " +
                            std::to_string(budget_.perMinute()) +
                            " game-platform requests per minute is used up ([gameid] "
                            "requests_per_minute)";
    return refused;
  }
  sent = request;
  sent.timeout -= std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  return std::nullopt;
}

}  // namespace skinpulse::net
