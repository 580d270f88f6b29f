#pragma once

// IngestLease: decides which daemon instance polls the market sources. With several
// instances on one PostgreSQL database exactly one ingests at a time (docs/api.md §8);
// the others stand by and take over when it goes away.

namespace skinpulse::store {

class IngestLease {
 public:
  virtual ~IngestLease() = default;
  /// Whether this instance may ingest now: acquires the lease when it is free, and
  /// confirms it still holds it otherwise. Never throws; a lost database connection
  /// means "no".
  virtual bool holds() = 0;
};

/// SQLite: one daemon per database file; it always ingests.
class SoleInstanceLease final : public IngestLease {
 public:
  bool holds() override { return true; }
};

}  // namespace skinpulse::store
