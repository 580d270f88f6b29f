// PATCH /api/v1/portfolio/holdings/:item_id bodies (docs/api.md §15): any bytes are either
// refused with MalformedBody / InvalidHolding or parsed into a change within the
// documented ranges. The same bytes as a CSV text cell: the cell never starts with a
// formula character, and read back as RFC 4180 it is the text (after the "'" it may add).
#include "portfolio/CostBody.hpp"
#include "portfolio/PortfolioCsv.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

void checkBody(std::string_view body) {
  store::CostChange change;
  try {
    change = parseCostBody(body, kNow);
  } catch (const common::MalformedBody&) {
    return;
  } catch (const InvalidHolding&) {
    return;
  }
  if (!change.set_cost_basis && !change.set_acquired_at) std::abort();
  if (change.cost_basis && (*change.cost_basis < 0 || *change.cost_basis > kMaxCostBasisCents)) {
    std::abort();
  }
  if (change.acquired_at &&
      (*change.acquired_at < kEarliestAcquiredAt || *change.acquired_at > kNow + 86400)) {
    std::abort();
  }
}

void checkCell(std::string_view text) {
  const std::string cell = csvText(text);
  if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos) {
    std::abort();
  }
  std::string back;
  if (!cell.empty() && cell.front() == '"') {
    if (cell.size() < 2 || cell.back() != '"') std::abort();
    for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
      back += cell[i];
      if (cell[i] == '"') {
        if (cell[i + 1] != '"') std::abort();  // a lone quote inside
        ++i;
      }
    }
    if (back != text) {
      if (back.empty() || back.front() != '\'' || std::string_view(back).substr(1) != text) {
        std::abort();
      }
    }
  } else {
    if (cell != text) std::abort();
    if (cell.find_first_of("\",\r\n") != std::string::npos) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  checkBody(bytes);
  checkCell(bytes);
  return 0;
}
