#include "common/OpenFileLimit.hpp"

#include "common/Log.hpp"

#include <sys/resource.h>

namespace skinpulse::common {

void raiseOpenFileLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  const auto before = limit.rlim_cur;
  limit.rlim_cur = limit.rlim_max;
  if (::setrlimit(RLIMIT_NOFILE, &limit) == 0) {
    log::main().info("open-file limit raised from {} to {}", before, limit.rlim_cur);
  }
}

}  // namespace skinpulse::common
