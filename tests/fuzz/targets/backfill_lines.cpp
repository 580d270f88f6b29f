// skinpulsectl backfill's line reader (daemon/ingest/BackfillReader.cpp) on arbitrary
// bytes: the first byte picks the read chunk size (1-256 bytes), so lines cross chunk
// boundaries; every line must come back as a line or a reason, never a crash, and every
// view must lie in what was read.
#include "ingest/BackfillReader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t chunk = static_cast<std::size_t>(data[0]) + 1;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  skinpulse::ingest::BackfillReader reader(in, chunk);
  std::size_t last_line = 0;
  for (auto status = reader.next(); status != skinpulse::ingest::BackfillReader::Status::kEnd;
       status = reader.next()) {
    if (reader.lineNumber() <= last_line) std::abort();
    last_line = reader.lineNumber();
    if (status == skinpulse::ingest::BackfillReader::Status::kRejected) {
      if (reader.reason().empty()) std::abort();
      continue;
    }
    const auto& line = reader.line();
    // Touch every byte of the views (ASan checks they are readable).
    std::size_t sum = 0;
    for (const char c : line.name) sum += static_cast<unsigned char>(c);
    for (const char c : line.source) sum += static_cast<unsigned char>(c);
    if (line.source.empty() || line.source.size() > 64) std::abort();
    if (line.listings && sum == 0 && *line.listings == -1) std::abort();  // keeps sum used
  }
  if (reader.bytesRead() != size - 1) std::abort();
  return 0;
}
