#pragma once

// Content-Encoding br through libbrotlidec's streaming API. Skinport answers only clients
// that accept it (docs/upstreams.md b.3).

#include "net/ContentDecoder.hpp"

#include <brotli/decode.h>

namespace skinpulse::net {

class BrotliDecoder final : public ContentDecoder {
 public:
  BrotliDecoder();
  ~BrotliDecoder() override;
  BrotliDecoder(const BrotliDecoder&) = delete;
  BrotliDecoder& operator=(const BrotliDecoder&) = delete;

  Result decodeTo(std::string_view input, const Emit& emit) override;
  Result finish() override;

 private:
  BrotliDecoderState* state_;
  bool ended_ = false;
  bool saw_input_ = false;
};

}  // namespace skinpulse::net
