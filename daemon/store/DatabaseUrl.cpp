#include "store/DatabaseUrl.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include <cctype>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace skinpulse::store {
namespace {

[[noreturn]] void fail(const std::string& problem) {
  throw std::runtime_error("DATABASE_URL: " + problem);
}

// `what` names the component in the error; the value itself is never echoed because it
// may be the password.
// A URL's userinfo, path and query keep '+' as is (only forms mean a space by it).
std::string percentDecode(std::string_view text, const char* what) {
  auto decoded = sdk::percentDecode(text, false);
  if (!decoded) fail(std::string("malformed percent-encoding in the ") + what);
  return std::move(*decoded);
}

// Poco::Data::PostgreSQL splits its connection string on single spaces before libpq sees
// it, so a value can be quoted for libpq but can never contain a space.
std::string libpqValue(const std::string& value, const char* what) {
  if (value.find_first_of(" \t\r\n") != std::string::npos) {
    fail(std::string("the ") + what +
         " contains whitespace, which the PostgreSQL driver cannot pass");
  }
  std::string quoted = "'";
  for (char c : value) {
    if (c == '\'' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "'";
}

bool isConninfoKey(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (!(std::islower(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

DatabaseUrl parseSqlite(std::string_view rest) {
  if (rest.empty()) fail("sqlite URL names no file (expected sqlite://PATH or sqlite://:memory:)");
  DatabaseUrl url;
  url.backend = Backend::kSqlite;
  url.connection_string = std::string(rest);
  url.in_memory = rest == ":memory:";
  url.redacted = "sqlite://" + url.connection_string;
  return url;
}

struct Authority {
  std::string user;
  std::optional<std::string> password;
  std::string host;
  std::string port;
};

Authority parseAuthority(std::string_view authority) {
  Authority out;
  // The password may itself contain '@' when not percent-encoded: the host follows the
  // last one.
  const auto at = authority.rfind('@');
  std::string_view hostport = authority;
  if (at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    hostport = authority.substr(at + 1);
    const auto colon = userinfo.find(':');
    out.user = percentDecode(userinfo.substr(0, colon), "user name");
    if (colon != std::string_view::npos) {
      out.password = percentDecode(userinfo.substr(colon + 1), "password");
    }
  }
  if (!hostport.empty() && hostport.front() == '[') {
    const auto close = hostport.find(']');
    if (close == std::string_view::npos) fail("postgresql URL has an unterminated [IPv6] host");
    out.host = std::string(hostport.substr(1, close - 1));
    hostport = hostport.substr(close + 1);
    if (!hostport.empty() && hostport.front() != ':')
      fail("postgresql URL has junk after the host");
    if (!hostport.empty()) out.port = std::string(hostport.substr(1));
  } else {
    const auto colon = hostport.find(':');
    out.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) out.port = std::string(hostport.substr(colon + 1));
  }
  if (!out.port.empty()) {
    for (char c : out.port) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        fail("postgresql URL has a non-numeric port");
    }
    if (out.port.size() > 5 || std::stoi(out.port) == 0 || std::stoi(out.port) > 65535) {
      fail("postgresql URL has a port out of range");
    }
  }
  return out;
}

void appendPair(std::string& conninfo, const std::string& key, const std::string& value) {
  if (!conninfo.empty()) conninfo += ' ';
  conninfo += key + '=' + value;
}

DatabaseUrl parsePostgres(std::string_view scheme, std::string_view rest) {
  // Everything before the last '@' is user information: a password typed without
  // percent-encoding ('/', '?', '@' and all) still lands in the password, never in a host
  // or database name that error messages would show.
  const auto at = rest.rfind('@');
  const auto slash = rest.find('/', at == std::string_view::npos ? 0 : at);
  if (slash == std::string_view::npos) fail("postgresql URL names no database (expected /DBNAME)");
  const Authority auth = parseAuthority(rest.substr(0, slash));
  std::string_view path = rest.substr(slash + 1);
  std::string_view query;
  if (const auto q = path.find('?'); q != std::string_view::npos) {
    query = path.substr(q + 1);
    path = path.substr(0, q);
  }
  const std::string dbname = percentDecode(path, "database name");
  if (dbname.empty()) fail("postgresql URL names no database (expected /DBNAME)");

  DatabaseUrl url;
  url.backend = Backend::kPostgres;
  std::string& conninfo = url.connection_string;
  if (!auth.host.empty()) appendPair(conninfo, "host", libpqValue(auth.host, "host"));
  if (!auth.port.empty()) appendPair(conninfo, "port", auth.port);
  if (!auth.user.empty()) appendPair(conninfo, "user", libpqValue(auth.user, "user name"));
  if (auth.password) {
    appendPair(conninfo, "password", libpqValue(*auth.password, "password"));
    url.password = *auth.password;
  }
  appendPair(conninfo, "dbname", libpqValue(dbname, "database name"));
  // Poco's own default is 60 s; a daemon that cannot reach its database should say so
  // sooner. A connect_timeout in the query overrides it (later keys win in Poco's map).
  appendPair(conninfo, "connect_timeout", "10");
  appendPair(conninfo, "application_name", "skinpulse");
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    const std::string key = percentDecode(pair.substr(0, eq), "query parameter name");
    if (eq == std::string_view::npos || !isConninfoKey(key)) {
      fail("postgresql URL has a malformed query parameter (expected key=value)");
    }
    if (key == "password") fail("postgresql URL: give the password before the @, not in the query");
    appendPair(
        conninfo, key,
        libpqValue(percentDecode(pair.substr(eq + 1), "query parameter"), "query parameter"));
  }

  url.redacted = std::string(scheme) + "://";
  if (!auth.user.empty() || auth.password) {
    url.redacted += auth.user + (auth.password ? ":***" : "") + "@";
  }
  const bool ipv6 = auth.host.find(':') != std::string::npos;
  url.redacted += (ipv6 ? "[" + auth.host + "]" : auth.host) +
                  (auth.port.empty() ? "" : ":" + auth.port) + "/" + dbname;
  return url;
}

}  // namespace

DatabaseUrl parseDatabaseUrl(const std::string& text) {
  const auto sep = text.find("://");
  if (text.empty()) fail("empty (expected sqlite://PATH or postgresql://user:pass@host:port/db)");
  if (sep == std::string::npos || sep == 0) {
    fail("malformed URL (expected sqlite://PATH or postgresql://user:pass@host:port/db)");
  }
  std::string scheme = text.substr(0, sep);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view rest = std::string_view(text).substr(sep + 3);
  if (scheme == "sqlite") return parseSqlite(rest);
  if (scheme == "postgresql" || scheme == "postgres") return parsePostgres(scheme, rest);
  bool printable = scheme.size() <= 32;
  for (char c : scheme) printable = printable && std::isalnum(static_cast<unsigned char>(c));
  fail("unknown scheme" + (printable ? " '" + scheme + "'" : std::string()) +
       " (expected sqlite:// or postgresql://)");
}

}  // namespace skinpulse::store
