#pragma once

// HttpError: how handlers and middleware refuse a request. The server turns it into an
// RFC 9457 problem+json response with the stable `code` of docs/api.md §2.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::http {

class HttpError : public std::runtime_error {
 public:
  using Headers = std::vector<std::pair<std::string, std::string>>;

  HttpError(int status, std::string code, const std::string& detail, Headers headers = {})
      : std::runtime_error(detail),
        status_(status),
        code_(std::move(code)),
        detail_(detail),
        headers_(std::move(headers)) {}

  int status() const { return status_; }
  const std::string& code() const { return code_; }
  const std::string& detail() const { return detail_; }
  const Headers& headers() const { return headers_; }

  static HttpError invalidParameter(const std::string& name, const std::string& problem) {
    return HttpError(400, "invalid_parameter", "parameter '" + name + "' " + problem);
  }
  static HttpError notFound() { return HttpError(404, "not_found", "no resource at this path"); }

 private:
  int status_;
  std::string code_;
  std::string detail_;
  Headers headers_;
};

}  // namespace skinpulse::http
