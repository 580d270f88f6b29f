// Alert target hosts read as inet_aton does (alerts/LooseIPv4): the create-time target
// check must read "0", "127.1", "0x7f.1" and "2130706433" as the resolver will. Checked
// against the C library itself on every input without a NUL (inet_aton reads a C
// string, and takes trailing white space and what follows it; URL hosts have neither).
#include "alerts/LooseIPv4.hpp"

#include <arpa/inet.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto ours = skinpulse::alerts::parseLooseIPv4(text);
  if (text.find_first_of(std::string("\0 \t\n\v\f\r", 7)) != std::string::npos) return 0;
  in_addr address{};
  const bool theirs = ::inet_aton(text.c_str(), &address) != 0;
  if (ours.has_value() != theirs) std::abort();
  if (ours && *ours != ntohl(address.s_addr)) std::abort();
  return 0;
}
