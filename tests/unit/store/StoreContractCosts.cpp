// Contract: cost bases set in bulk (HoldingStore::setCosts, the cost-basis CSV upload of
// docs/api.md §23.3) — one transaction over holding_costs and the holdings' copy.

#include "StoreContract.hpp"
#include "store/NullableInt.hpp"

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::test {

namespace {

// The holdings' copy of the cost basis the hourly pass reads, per item.
std::vector<std::optional<std::int64_t>> copiedCosts(store::ConnectionPool& pool,
                                                     const std::string& user_id) {
  std::vector<store::NullableInt> costs;
  auto lease = pool.read();
  lease.session() << pool.sql("SELECT cost_basis FROM holdings WHERE user_id = ? ORDER BY item_id"),
      into(costs), bind(user_id), now;
  std::vector<std::optional<std::int64_t>> out;
  for (const auto& cost : costs) out.push_back(store::optionalOf(cost));
  return out;
}

}  // namespace

void StoreContract::testSetCostsInBulk() {
  if (skipped()) return;
  seedItems(4);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("bulk@example.com", "B", "", 1000);
  const auto other = db_->users().createUser("other@example.com", "O", "", 1000);
  holdings.replaceHoldings(user.id, {{1, 2, 0}, {2, 1, 0}, {3, 5, 0}}, 100);
  holdings.replaceHoldings(other.id, {{1, 4, 0}}, 100);
  store::CostChange dated;
  dated.set_acquired_at = true;
  dated.acquired_at = 1'600'000'000;
  holdings.changeCost(user.id, 2, dated, 105);

  holdings.setCosts(user.id, {}, 110);  // nothing to do
  holdings.setCosts(user.id,
                    {{1, 1250, 1'700'000'000},
                     {2, 300, std::nullopt},  // no date: the stored one stays
                     {3, 0, std::nullopt},
                     {1, 1300, 1'700'000'100}},  // a repeated item: the last one
                    120);
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(user.id)) ==
                  std::vector<store::HoldingRecord>{{1, 2, 100, 1300, 1'700'000'100},
                                                    {2, 1, 100, 300, 1'600'000'000},
                                                    {3, 5, 100, 0, std::nullopt}}));
  CPPUNIT_ASSERT(
      (copiedCosts(pool(), user.id) == std::vector<std::optional<std::int64_t>>{1300, 300, 0}));
  // Nobody else's costs change.
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(other.id)) ==
                  std::vector<store::HoldingRecord>{{1, 4, 100}}));
  CPPUNIT_ASSERT(
      (copiedCosts(pool(), other.id) == std::vector<std::optional<std::int64_t>>{std::nullopt}));

  // A later upload overwrites; the copy follows; a re-import keeps the costs.
  holdings.setCosts(user.id, {{3, 75, 1'650'000'000}}, 130);
  holdings.replaceHoldings(user.id, {{1, 2, 0}, {3, 5, 0}}, 200);
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(user.id)) ==
                  std::vector<store::HoldingRecord>{{1, 2, 200, 1300, 1'700'000'100},
                                                    {3, 5, 200, 75, 1'650'000'000}}));

  // All or nothing: a cost the schema refuses (negative) rolls back the whole batch.
  CPPUNIT_ASSERT_THROW(
      holdings.setCosts(user.id, {{1, 1, std::nullopt}, {3, -5, std::nullopt}}, 140),
      std::exception);
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(user.id)) ==
                  std::vector<store::HoldingRecord>{{1, 2, 200, 1300, 1'700'000'100},
                                                    {3, 5, 200, 75, 1'650'000'000}}));
  CPPUNIT_ASSERT(
      (copiedCosts(pool(), user.id) == std::vector<std::optional<std::int64_t>>{1300, 75}));
}

}  // namespace skinpulse::test
