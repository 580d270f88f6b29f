#pragma once

// Encoders for test fixtures: the client only ever decodes.

#include <cstddef>
#include <string>
#include <string_view>

namespace testcompress {

std::string gzip(std::string_view data);
std::string zlib(std::string_view data);        ///< "deflate" as RFC 9110 means it
std::string rawDeflate(std::string_view data);  ///< "deflate" as some servers send it
std::string brotli(std::string_view data);      ///< BrotliEncoderCompress

/// `count` zero bytes, gzip- or brotli-compressed by streaming, never held in memory:
/// decompression bombs.
std::string gzipZeros(std::size_t count);
std::string brotliZeros(std::size_t count);

}  // namespace testcompress
