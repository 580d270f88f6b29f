#include "module/ModuleList.hpp"

namespace skinpulse::module {

ModuleList::~ModuleList() {
  stop();
  while (!modules_.empty()) modules_.pop_back();
}

void ModuleList::attach(Services& services) {
  for (auto& module : modules_) module->attach(services);
}

std::vector<std::string_view> ModuleList::names() const {
  std::vector<std::string_view> out;
  for (const auto& module : modules_) out.push_back(module->name());
  return out;
}

void ModuleList::registerRoutes(http::Router& router) {
  for (auto& module : modules_) module->registerRoutes(router);
}

void ModuleList::start() {
  try {
    while (started_ < modules_.size()) {
      modules_[started_]->start();
      ++started_;
    }
  } catch (...) {
    stop();
    throw;
  }
}

bool ModuleList::stop() {
  bool clean = true;
  while (started_ > 0) {
    --started_;
    if (!modules_[started_]->stop()) clean = false;
  }
  return clean;
}

bool ModuleList::describeReadiness(common::JsonWriter& json) const {
  bool ready = true;
  for (const auto& module : modules_) ready = module->describeReadiness(json) && ready;
  return ready;
}

}  // namespace skinpulse::module
