#include "ingest/CyclePreparation.hpp"

#include "common/Log.hpp"

namespace skinpulse::ingest {

CyclePreparation::CyclePreparation(std::vector<CycleObserver*> observers, const CycleUpdate& update,
                                   std::vector<std::string> source_names)
    : observers_(std::move(observers)),
      update_(update),
      source_names_(std::move(source_names)),
      outcomes_(observers_.size()) {
  helper_ = std::thread([this] { run(); });
}

CyclePreparation::~CyclePreparation() {
  if (helper_.joinable()) helper_.join();
  // Whatever was prepared and not handed over is dropped here, uncommitted.
}

void CyclePreparation::run() {
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < observers_.size(); ++i) {
    try {
      outcomes_[i].prepared = observers_[i]->prepareCycle(update_, source_names_);
    } catch (const std::exception& error) {
      outcomes_[i].failed = true;
      log::main().error("after-cycle step failed: {}", error.what());
    }
  }
  took_ = std::chrono::steady_clock::now() - started;
}

std::vector<CyclePreparation::Outcome> CyclePreparation::finish() {
  if (helper_.joinable()) helper_.join();
  return std::move(outcomes_);
}

}  // namespace skinpulse::ingest
