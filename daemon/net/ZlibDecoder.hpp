#pragma once

// Content-Encoding gzip and deflate through zlib's streaming inflate.

#include "net/ContentDecoder.hpp"

#include <zlib.h>

namespace skinpulse::net {

class ZlibDecoder final : public ContentDecoder {
 public:
  enum class Format {
    kGzip,     ///< gzip (a zlib stream is accepted too: some servers mislabel)
    kDeflate,  ///< zlib-wrapped as RFC 9110 says, or raw deflate as some servers send
  };

  explicit ZlibDecoder(Format format);
  ~ZlibDecoder() override;
  ZlibDecoder(const ZlibDecoder&) = delete;
  ZlibDecoder& operator=(const ZlibDecoder&) = delete;

  Result decodeTo(std::string_view input, const Emit& emit) override;
  Result finish() override;

 private:
  bool start(int window_bits);
  Result inflateSome(std::string_view input, const Emit& emit);

  Format format_;
  z_stream stream_{};
  bool started_ = false;
  bool ended_ = false;
  bool saw_input_ = false;
  std::string header_;  ///< first bytes of a deflate body, until the wrapper is known
};

}  // namespace skinpulse::net
