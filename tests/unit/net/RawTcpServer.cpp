#include "RawTcpServer.hpp"

#include <Poco/Exception.h>

RawTcpServer::RawTcpServer(Session session)
    : session_(std::move(session)),
      socket_(Poco::Net::SocketAddress("127.0.0.1", 0), 16),
      port_(socket_.address().port()),
      thread_([this] { serve(); }) {}

RawTcpServer::~RawTcpServer() {
  stop_ = true;
  thread_.join();
}

std::string RawTcpServer::url(const std::string& target) const {
  return "http://127.0.0.1:" + std::to_string(port_) + target;
}

std::string RawTcpServer::readRequestHead(Poco::Net::StreamSocket& socket) {
  std::string head;
  char c = 0;
  while (head.size() < 65536 && socket.receiveBytes(&c, 1) == 1) {
    head.push_back(c);
    if (head.size() >= 4 && head.compare(head.size() - 4, 4, "\r\n\r\n") == 0) break;
  }
  return head;
}

void RawTcpServer::serve() {
  const Poco::Timespan tick(0, 50 * 1000);
  while (!stop_) {
    if (!socket_.poll(tick, Poco::Net::Socket::SELECT_READ)) continue;
    try {
      Poco::Net::StreamSocket connection = socket_.acceptConnection();
      connection.setReceiveTimeout(Poco::Timespan(5, 0));
      session_(connection, stop_);
      connection.close();
    } catch (const Poco::Exception&) {
      // The client hung up first: that is what several tests provoke.
    }
  }
}
