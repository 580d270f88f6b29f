#include "WaxpeerSource.hpp"

namespace skinpulse::plugins::waxpeer {

support::Mapping mapping() {
  // `min` is in thousandths of a dollar (937999 = $937.999), not cents; an item nobody
  // lists has min 0 and is skipped.
  return support::listMapping({.items = "/items",
                               .name = "name",
                               .price = "min",
                               .unit = support::PriceUnit::kMilli,
                               .listings = "count",
                               .image = "img",
                               .success = true});
}

}  // namespace skinpulse::plugins::waxpeer
