#pragma once

// Convenience header: everything a plugin author needs.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"
#include "skinpulse/sdk/metric.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/rates.hpp"
#include "skinpulse/sdk/source.hpp"
#include "skinpulse/sdk/status.hpp"
#include "skinpulse/sdk/types.hpp"
#include "skinpulse/sdk/url_encoding.hpp"
#include "skinpulse/sdk/version.hpp"
