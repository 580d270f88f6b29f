#pragma once

// The fixture of the IngestCycle tests: an in-memory database whose catalogue holds one
// item (seeded at `seeded_at`), the Catalog loaded from it, and an empty latest-price
// cache, fresh for every test.

#include "catalog/Catalog.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Database.hpp"

#include <cppunit/TestFixture.h>

#include <memory>
#include <string>

namespace skinpulse::testing {

class OneItemStore : public CppUnit::TestFixture {
 public:
  OneItemStore(std::string name, std::int64_t seeded_at)
      : name_(std::move(name)), seeded_at_(seeded_at) {}

  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    std::vector<store::CatalogEntry> entries(1);
    entries[0].market_hash_name = name_;
    db_->catalog().seed(entries, seeded_at_);
    catalog_ = std::make_unique<catalog::Catalog>();
    catalog_->reset(db_->catalog().allItems());
  }
  void tearDown() override { db_.reset(); }

 protected:
  std::unique_ptr<store::Database> db_;
  std::unique_ptr<catalog::Catalog> catalog_;
  prices::LatestPrices latest_;

 private:
  std::string name_;
  std::int64_t seeded_at_;
};

}  // namespace skinpulse::testing
