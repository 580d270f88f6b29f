#include "store/postgres/PostgresHistory.hpp"

#include <Poco/Data/PostgreSQL/SessionImpl.h>

#include <cstring>
#include <endian.h>
#include <libpq-fe.h>
#include <memory>
#include <stdexcept>

namespace skinpulse::store::postgres {
namespace {

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

constexpr int kBinary = 1;

std::int64_t int8At(const PGresult* result, int row, int column) {
  if (PQgetlength(result, row, column) != 8) throw std::runtime_error("PostgreSQL: bad int8");
  std::uint64_t network = 0;
  std::memcpy(&network, PQgetvalue(result, row, column), sizeof network);
  return static_cast<std::int64_t>(be64toh(network));
}

std::int16_t int2At(const PGresult* result, int row, int column) {
  if (PQgetlength(result, row, column) != 2) throw std::runtime_error("PostgreSQL: bad int2");
  std::uint16_t network = 0;
  std::memcpy(&network, PQgetvalue(result, row, column), sizeof network);
  return static_cast<std::int16_t>(be16toh(network));
}

}  // namespace

std::vector<PricePoint> selectItemPoints(Poco::Data::Session& session, std::int64_t item_id,
                                         std::int64_t since,
                                         const std::optional<std::string>& source) {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) throw std::logic_error("selectItemPoints needs a PostgreSQL session");

  // Parameters go as text: libpq converts, and no byte-order handling is needed here.
  const std::string item = std::to_string(item_id);
  const std::string after = std::to_string(since);
  const char* values[3] = {item.c_str(), after.c_str(), source ? source->c_str() : nullptr};
  const char* sql =
      source ? "SELECT source, time, price, volume, kind, listings, outlier FROM price_points"
               " WHERE item_id = $1 AND time > $2 AND source = $3"
               " ORDER BY time, source"
             : "SELECT source, time, price, volume, kind, listings, outlier FROM price_points"
               " WHERE item_id = $1 AND time > $2 ORDER BY time, source";
  const Result result(
      PQexecParams(impl->handle(), sql, source ? 3 : 2, nullptr, values, nullptr, nullptr, kBinary),
      &PQclear);
  if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
    throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(impl->handle()));
  }
  const int rows = PQntuples(result.get());
  std::vector<PricePoint> points;
  points.reserve(static_cast<std::size_t>(rows));
  for (int row = 0; row < rows; ++row) {
    PricePoint point{item_id,
                     std::string(PQgetvalue(result.get(), row, 0),
                                 static_cast<std::size_t>(PQgetlength(result.get(), row, 0))),
                     int8At(result.get(), row, 1), int8At(result.get(), row, 2),
                     int8At(result.get(), row, 3)};
    const std::string kind(PQgetvalue(result.get(), row, 4),
                           static_cast<std::size_t>(PQgetlength(result.get(), row, 4)));
    point.kind = sdk::parsePriceKind(kind).value_or(sdk::PriceKind::kAsk);
    if (PQgetisnull(result.get(), row, 5) == 0) point.listings = int8At(result.get(), row, 5);
    point.outlier = int2At(result.get(), row, 6) != 0;
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace skinpulse::store::postgres
