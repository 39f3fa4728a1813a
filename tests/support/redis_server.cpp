#include "tests/support/redis_server.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cluster/transport/redis_client.h"
#include "cluster/transport/redis_commands.h"

namespace veletas::test_support {

int FreeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

std::unique_ptr<RedisServer> RedisServer::Start(std::string& why, const std::string& appendfsync,
                                                const std::string& extra_config) {
  std::unique_ptr<RedisServer> s(new RedisServer());
  static int count = 0;
  s->dir_ = (std::filesystem::temp_directory_path() /
             ("veletas_redis_" + std::to_string(::getpid()) + "_" + std::to_string(count++)))
                .string();
  std::filesystem::remove_all(s->dir_);
  std::filesystem::create_directories(s->dir_);
  for (int attempt = 0; attempt < 5; ++attempt) {
    s->port_ = FreeLoopbackPort();
    s->config_ = s->dir_ + "/redis.conf";
    std::ofstream(s->config_) << "port " << s->port_ << "\nbind 127.0.0.1\ndir " << s->dir_
                              << "\nappendonly yes\nappendfsync " << appendfsync
                              << "\nsave \"\"\ndaemonize no\nlogfile " << s->dir_ << "/redis.log\n"
                              << extra_config << "\n";
    if (s->Launch()) return s;
  }
  why = "redis-server did not start (is it installed? see " + s->dir_ + "/redis.log)";
  return nullptr;
}

bool RedisServer::Launch(bool wait) {
  pid_ = ::fork();
  if (pid_ == 0) {
    ::execlp("redis-server", "redis-server", config_.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  if (pid_ < 0) return false;
  if (!wait) return true;
  cluster::RedisOptions options;
  options.endpoint.port = port_;
  options.connect_timeout_seconds = 1;
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    cluster::RedisClient client(options);
    const util::Status pong = cluster::Ping(client);
    // An answer, even "NOAUTH" from a server whose default user is off, means it is up.
    if (pong.ok() ||
        (cluster::Refused(client, pong) && pong.error().find(": NOAUTH") != std::string::npos)) {
      return true;
    }
  }
  Kill();
  return false;
}

std::string RedisServer::Url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

void RedisServer::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

bool RedisServer::Restart(bool wait) {
  Kill();
  return Launch(wait);
}

RedisServer::~RedisServer() {
  Kill();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace veletas::test_support
