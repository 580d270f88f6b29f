#pragma once

// CyclePreparation: the observers' share of a cycle that may overlap its store
// transaction (CycleObserver::prepareCycle). Started before the insert, it runs each
// observer's prepareCycle() in order on one helper thread while the ingestion thread
// stores; finish() waits for it and hands over what each prepared, to be committed only
// after the store committed. Destroyed without finish() (the store threw), it waits for
// the helper and drops everything prepared: nothing of an unstored cycle is published.

#include "ingest/CycleObserver.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace skinpulse::ingest {

class CyclePreparation {
 public:
  /// What one observer made of the cycle.
  struct Outcome {
    std::unique_ptr<PreparedCycle> prepared;  ///< null: onCycle() after the store, unless failed
    bool failed = false;  ///< prepareCycle() threw (logged): the observer skips this cycle
  };

  /// Starts preparing. `update` (and the points it refers to) and every observer must
  /// outlive this object.
  CyclePreparation(std::vector<CycleObserver*> observers, const CycleUpdate& update,
                   std::vector<std::string> source_names);
  ~CyclePreparation();
  CyclePreparation(const CyclePreparation&) = delete;
  CyclePreparation& operator=(const CyclePreparation&) = delete;

  /// Waits for the helper; one outcome per observer, in order.
  std::vector<Outcome> finish();
  /// How long the helper spent preparing (valid after finish()).
  std::chrono::nanoseconds took() const { return took_; }

 private:
  void run();

  std::vector<CycleObserver*> observers_;
  const CycleUpdate& update_;
  std::vector<std::string> source_names_;
  std::vector<Outcome> outcomes_;
  std::chrono::nanoseconds took_{0};
  std::thread helper_;
};

}  // namespace skinpulse::ingest
