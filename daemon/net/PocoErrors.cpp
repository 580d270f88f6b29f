#include "net/PocoErrors.hpp"

#include <Poco/Net/NetException.h>

namespace skinpulse::net {

sdk::HttpResponse::Error errorKindOf(const Poco::Exception& failure) {
  using Error = sdk::HttpResponse::Error;
  if (dynamic_cast<const Poco::TimeoutException*>(&failure) != nullptr) return Error::kTimeout;
  // The HTTP-level exceptions derive from NetException (an IOException): test them first.
  if (dynamic_cast<const Poco::Net::MessageException*>(&failure) != nullptr ||
      dynamic_cast<const Poco::Net::NoMessageException*>(&failure) != nullptr ||
      dynamic_cast<const Poco::Net::HTTPException*>(&failure) != nullptr ||
      dynamic_cast<const Poco::SyntaxException*>(&failure) != nullptr ||
      dynamic_cast<const Poco::DataFormatException*>(&failure) != nullptr) {
    return Error::kProtocol;
  }
  if (dynamic_cast<const Poco::IOException*>(&failure) != nullptr) {  // NetException, SSL
    return Error::kConnect;
  }
  return Error::kProtocol;
}

}  // namespace skinpulse::net
