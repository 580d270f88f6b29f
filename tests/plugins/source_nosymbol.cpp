// Test plugin: a shared object that forgot SKINPULSE_DECLARE_PLUGIN and exports a
// misspelt entry point instead of skinpulse_plugin_entry.

#include "skinpulse/sdk/sdk.hpp"

extern "C" __attribute__((visibility("default"))) const skinpulse_plugin_descriptor*
skinpulse_plugin_entrypoint() {
  return nullptr;
}
