#pragma once

// The live-update protocol of docs/api.md §7, free of sockets: what a client may send,
// its subscription set, and the fixed server replies.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::ws {

/// One client message, parsed. Anything that is not exactly one of the documented
/// messages (malformed JSON, unknown type, `items` neither "*" nor an array of positive
/// integers) is kInvalid and answered with an `error`.
struct ClientMessage {
  enum class Type { kSubscribe, kUnsubscribe, kPing, kInvalid };
  Type type = Type::kInvalid;
  bool all = false;                 ///< `"items":"*"`
  std::vector<std::int64_t> items;  ///< sorted, without duplicates
};

ClientMessage parseClientMessage(std::string_view text);

/// The items a client receives: none, a set of ids, or every item.
class Subscription {
 public:
  static constexpr std::size_t kMaxItems = 1000;

  /// Adds the message's items (or all). False, with nothing changed, when the set would
  /// grow past kMaxItems: the caller closes the connection with 1008.
  bool subscribe(const ClientMessage& message);
  /// Removes the message's items, or all. Removing ids while subscribed to "*" keeps
  /// "*": the protocol has no "all except" form.
  void unsubscribe(const ClientMessage& message);

  bool all() const { return all_; }
  bool empty() const { return !all_ && ids_.empty(); }
  bool contains(std::int64_t item_id) const;
  const std::vector<std::int64_t>& ids() const { return ids_; }

  /// `{"type":"subscribed","items":...}` with the whole set after the change.
  std::string acknowledgement() const;

 private:
  bool all_ = false;
  std::vector<std::int64_t> ids_;  ///< sorted, unique
};

/// Fixed server messages.
inline constexpr std::string_view kPongMessage = R"({"type":"pong"})";
inline constexpr std::string_view kInvalidMessage = R"({"type":"error","code":"invalid_message"})";

}  // namespace skinpulse::ws
