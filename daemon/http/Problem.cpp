#include "http/Problem.hpp"

#include "common/Json.hpp"

#include <Poco/Net/HTTPResponse.h>

namespace skinpulse::http {

std::string statusTitle(int status) {
  return Poco::Net::HTTPResponse::getReasonForStatus(
      static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
}

void renderProblem(const HttpError& error, Response& response) {
  common::JsonWriter json;
  json.beginObject()
      .key("type")
      .value("about:blank")
      .key("title")
      .value(statusTitle(error.status()))
      .key("status")
      .value(error.status())
      .key("detail")
      .value(error.detail())
      .key("code")
      .value(error.code())
      .endObject();
  response.status = error.status();
  response.content_type = "application/problem+json";
  response.body = json.take();
  for (const auto& [name, value] : error.headers()) response.setHeader(name, value);
}

}  // namespace skinpulse::http
