#include "ws/Connection.hpp"

#include "telemetry/DaemonMetrics.hpp"
#include "ws/Frame.hpp"

#include <cerrno>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace skinpulse::ws {
namespace {

constexpr int kMaxIovecs = 64;

SharedBytes textFrame(std::string_view json) {
  return std::make_shared<const std::string>(encodeFrame(Opcode::kText, json));
}

}  // namespace

Connection::Connection(int fd, const ConnectionLimits& limits, Clock::time_point now,
                       http::ConnectionSlot slot)
    : fd_(fd),
      limits_(limits),
      decoder_(limits.max_message_bytes),
      last_heard_(now),
      last_ping_(now),
      slot_(std::move(slot)) {}

Connection::~Connection() {
  // Unread input makes close() send a reset, which can destroy our close frame in the
  // client's receive buffer before it reads it: drain what has arrived first.
  char sink[4096];
  for (int i = 0; i < 16 && ::recv(fd_, sink, sizeof sink, MSG_DONTWAIT) > 0; ++i) {
  }
  ::close(fd_);
}

void Connection::setSession(std::string session_key, Clock::time_point expires_at) {
  session_key_ = std::move(session_key);
  session_expires_at_ = expires_at;
}

void Connection::endSession(Clock::time_point now) {
  if (session_key_.empty()) return;
  // Nothing of the user's may follow: the close frame goes out ahead of anything queued
  // (startClose drops unsent frames), and send() takes nothing once closing.
  startClose(kSessionEndedCloseCode, "session ended", now);
  flush();
}

void Connection::onReadable(char* buffer, std::size_t size, Clock::time_point now) {
  const ssize_t received = ::recv(fd_, buffer, size, MSG_DONTWAIT);
  if (received > 0) {
    receive(std::string_view(buffer, static_cast<std::size_t>(received)), now);
  } else if (received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
    finish();  // the client closed or reset the TCP connection
  }
}

void Connection::receive(std::string_view data, Clock::time_point now) {
  last_heard_ = now;
  if (closing_ && decoder_.error().code != 0) return;  // undecodable: discard until the end
  const bool ok = decoder_.feed(data, [&](DecodedMessage&& message) {
    if (!done_) onMessage(std::move(message), now);
  });
  if (!ok) {
    if (closing_) {
      finish();
    } else {
      startClose(decoder_.error().code, decoder_.error().reason, now);
    }
  }
  flush();
}

void Connection::onMessage(DecodedMessage&& message, Clock::time_point now) {
  if (closing_) {
    // After our close frame only the client's close matters; it completes the handshake.
    if (message.opcode == Opcode::kClose) {
      peer_closed_ = true;
      if (close_sent_) finish();
    }
    return;
  }
  switch (message.opcode) {
    case Opcode::kClose: {
      peer_closed_ = true;
      std::uint16_t code = close_code::kNormal;
      if (message.payload.size() >= 2) {
        code = static_cast<std::uint16_t>((static_cast<std::uint8_t>(message.payload[0]) << 8) |
                                          static_cast<std::uint8_t>(message.payload[1]));
      }
      startClose(code, "", now);  // the echo; we close TCP once it is written
      break;
    }
    case Opcode::kPing:
      send(std::make_shared<const std::string>(encodeFrame(Opcode::kPong, message.payload)));
      break;
    case Opcode::kPong:
      break;
    case Opcode::kText:
      onText(message.payload, now);
      break;
    default:
      sendText(kInvalidMessage);  // binary data is not a JSON message
      break;
  }
}

void Connection::onText(const std::string& text, Clock::time_point now) {
  const auto message = parseClientMessage(text);
  switch (message.type) {
    case ClientMessage::Type::kPing:
      sendText(kPongMessage);
      break;
    case ClientMessage::Type::kSubscribe:
      if (!subscription_.subscribe(message)) {
        startClose(close_code::kPolicyViolation, "more than 1000 subscribed items", now);
        return;
      }
      sendText(subscription_.acknowledgement());
      break;
    case ClientMessage::Type::kUnsubscribe:
      subscription_.unsubscribe(message);
      sendText(subscription_.acknowledgement());
      break;
    case ClientMessage::Type::kInvalid:
      sendText(kInvalidMessage);
      break;
  }
}

void Connection::sendText(std::string_view json) { send(textFrame(json)); }

void Connection::send(SharedBytes bytes) {
  if (closing_ || done_) return;
  if (queued_bytes_ + bytes->size() > limits_.max_queued_bytes) {
    telemetry::metrics().ws_slow_client_closes.get().inc();
    startClose(close_code::kTryAgainLater, "client too slow", Clock::now());
    return;
  }
  push(std::move(bytes));
}

void Connection::push(SharedBytes bytes) {
  queued_bytes_ += bytes->size();
  queue_.push_back(std::move(bytes));
}

void Connection::deliver(UpdateFrames& update) { deliver(std::vector<UpdateFrames*>{&update}); }

void Connection::deliver(const std::vector<UpdateFrames*>& updates) {
  std::string scratch;
  deliver(updates, scratch);
}

void Connection::deliver(const std::vector<UpdateFrames*>& updates, std::string& scratch) {
  // This client's frames not yet sent or queued, assembled in the reactor's buffer: most
  // clients keep up, and their frames leave in one send() straight from it, with no
  // allocation of their own; only what the socket does not take is copied into the queue.
  std::string& own = scratch;
  own.clear();
  const auto sendOwn = [&] {
    if (own.empty()) return;
    if (queue_.empty()) {
      sendNow(own);
    } else {
      push(std::make_shared<const std::string>(own));
    }
    own.clear();
  };
  for (UpdateFrames* update : updates) {
    if (closing_ || done_ || subscription_.empty()) break;
    const auto cycle = update->batch().cycle();
    if (cycle == 0 || cycle != current_cycle_) {
      current_cycle_ = cycle;
      sendOwn();  // the bound counts everything of the earlier cycles
      if (done_) return;
      if (queued_bytes_ > limits_.max_queued_bytes) {
        telemetry::metrics().ws_slow_client_closes.get().inc();
        startClose(close_code::kTryAgainLater, "client too slow", Clock::now());
        return;
      }
    }
    if (subscription_.all()) {
      sendOwn();                                                  // in order before them
      for (const auto& frame : update->allFrames()) push(frame);  // shared, not copied
    } else {
      update->appendFramesFor(subscription_, own);
    }
  }
  if (!closing_ && !done_) sendOwn();
  own.clear();
}

void Connection::sendNow(std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t sent =
        ::send(fd_, bytes.data() + written, bytes.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        finish();
        return;
      }
      break;
    }
    written += static_cast<std::size_t>(sent);
  }
  telemetry::metrics().ws_bytes_sent.get().inc(written);
  if (written == bytes.size()) {
    telemetry::metrics().ws_frames_sent.get().inc();
    return;
  }
  // The rest waits for the socket; a frame partly sent is completed from here, so the
  // client never sees anything but whole frames.
  push(std::make_shared<const std::string>(bytes.substr(written)));
}

void Connection::startClose(std::uint16_t code, std::string_view reason, Clock::time_point now) {
  if (closing_ || done_) return;
  closing_ = true;
  close_started_ = now;
  // Unsent updates are dropped; a frame already partly written must be completed or
  // the client could not parse what follows.
  while (queue_.size() > (head_offset_ > 0 ? 1u : 0u)) {
    queued_bytes_ -= queue_.back()->size();
    queue_.pop_back();
  }
  auto frame = std::make_shared<const std::string>(encodeClose(code, reason));
  queued_bytes_ += frame->size();
  queue_.push_back(std::move(frame));
  sent_close_code_ = code;
}

void Connection::flush() {
  while (!queue_.empty() && !done_) {
    iovec parts[kMaxIovecs];
    int count = 0;
    for (auto it = queue_.begin(); it != queue_.end() && count < kMaxIovecs; ++it, ++count) {
      const std::size_t skip = count == 0 ? head_offset_ : 0;
      parts[count].iov_base = const_cast<char*>((*it)->data() + skip);
      parts[count].iov_len = (*it)->size() - skip;
    }
    msghdr header{};
    header.msg_iov = parts;
    header.msg_iovlen = static_cast<std::size_t>(count);
    const ssize_t written = ::sendmsg(fd_, &header, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) finish();
      return;
    }
    auto left = static_cast<std::size_t>(written);
    telemetry::metrics().ws_bytes_sent.get().inc(left);
    while (left > 0) {
      const std::size_t head = queue_.front()->size() - head_offset_;
      if (left < head) {
        head_offset_ += left;
        break;
      }
      left -= head;
      telemetry::metrics().ws_frames_sent.get().inc();
      queued_bytes_ -= queue_.front()->size();
      queue_.pop_front();
      head_offset_ = 0;
    }
  }
  if (queue_.empty() && closing_ && !close_sent_) {
    close_sent_ = true;
    close_flushed_ = Clock::now();
    if (peer_closed_) finish();  // our echo is out: the handshake is complete
  }
}

void Connection::tick(Clock::time_point now) {
  if (done_) return;
  if (closing_) {
    if (!close_sent_ && now - close_started_ > limits_.close_flush) finish();
    if (close_sent_ && now - close_flushed_ > limits_.close_wait) finish();
    return;
  }
  if (!session_key_.empty() && now >= session_expires_at_) {
    endSession(now);  // the session expired: no request needed to notice
    return;
  }
  if (now - last_heard_ > limits_.idle_timeout) {
    finish();  // silent for too long: dropped without a handshake (docs/api.md §7)
    return;
  }
  if (now - last_ping_ >= limits_.ping_interval) {
    last_ping_ = now;
    send(std::make_shared<const std::string>(encodeFrame(Opcode::kPing, "")));
    flush();
  }
}

void Connection::goAway() {
  startClose(close_code::kGoingAway, "server shutting down", Clock::now());
  flush();
  finish();
}

}  // namespace skinpulse::ws
