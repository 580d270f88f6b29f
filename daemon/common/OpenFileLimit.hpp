#pragma once

// Every connection (HTTP, WebSocket, upstream, database) is a descriptor, and the usual
// soft limit of 1024 is far below the 10,000 connections the front door admits
// ([http] max_connections). The limit is a property of the process, so it is raised once,
// at start-up, by whoever owns the process (the daemon, a benchmark).

namespace skinpulse::common {

/// Lifts RLIMIT_NOFILE's soft limit to the hard limit and logs the change; does nothing
/// when it is already there or the call fails.
void raiseOpenFileLimit();

}  // namespace skinpulse::common
